import type { Chunk } from '../core/types.js';

/** Words a signature heading may start with before the name: `class dict(**kwargs)`, `async def`, `static`. */
const SIGNATURE = /^(?:[a-z]+\s+)*?([\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::|#)[\p{L}_$][\p{L}\p{N}_$]*)*)\s*(\(.*\)|\[.*\])?\s*(?:(?:->|:|=).*)?$/u;
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/**
 * The API a chunk defines: the name in its deepest heading when that heading is a signature
 * (`os.path.join(path, *paths)`, `class dict(**kwargs)`, `datetime.min`), and the anchor when it
 * is the qualified name of that API (Sphinx's `<dt id="dict.items">`).
 */
export function definedNames(chunk: Pick<Chunk, 'headingPath' | 'anchor'>): string[] {
  const heading = chunk.headingPath.at(-1)?.trim();
  if (heading === undefined) return [];
  // One entry under several names (`operator.lt(a, b); operator.__lt__(a, b)`): each is defined here.
  const signatures = heading.split(SIGNATURES_SEPARATOR);
  if (signatures.length > 1) return [...new Set(signatures.flatMap((signature) => namesOf(signature.trim(), chunk.anchor)))];
  return namesOf(heading, chunk.anchor);
}

/** The separator `markSections` puts between the signatures of one entry. */
const SIGNATURES_SEPARATOR = /;\s+(?=[\p{L}_$])/u;

function namesOf(heading: string, anchor: string | undefined): string[] {
  const match = SIGNATURE.exec(heading);
  const name = match?.[1];
  if (name === undefined) return [];
  const anchorNames = anchor !== undefined && IDENTIFIER.test(anchor) && (anchor === name || anchor.endsWith(`.${name}`) || anchor.endsWith(`::${name}`));
  const looksLikeCode = match?.[2] !== undefined || /[.:#_]/.test(name) || anchorNames;
  if (!looksLikeCode) return [];
  return anchorNames && anchor !== name ? [anchor as string, name] : [name];
}
