import { splitSignatures } from '../core/signatures.js';
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
  // One entry under several names (`operator.lt(a, b); operator.__lt__(a, b)`): each is defined
  // here, a member's with the first name's namespace (`dict.keys; iterkeys()` → dict.iterkeys).
  const [first, ...others] = splitSignatures(heading);
  const names = namesOf(first ?? heading, chunk.anchor);
  const anchor = chunk.anchor ?? '';
  const namespace = IDENTIFIER.test(anchor) ? /^(.+(?:\.|::))[^.:]+$/u.exec(anchor)?.[1] : undefined;
  for (const other of others) {
    for (const name of namesOf(other, undefined)) {
      names.push(name);
      if (namespace !== undefined && !/[.:]/.test(name)) names.push(`${namespace}${name}`);
    }
  }
  return [...new Set(names)];
}

function namesOf(heading: string, anchor: string | undefined): string[] {
  const match = SIGNATURE.exec(heading);
  const name = match?.[1];
  if (name === undefined) return [];
  const anchorNames = anchor !== undefined && IDENTIFIER.test(anchor) && (anchor === name || anchor.endsWith(`.${name}`) || anchor.endsWith(`::${name}`)) && !isTitleWord(heading, name);
  const looksLikeCode = match?.[2] !== undefined || /[.:#_]/.test(name) || anchorNames;
  if (!looksLikeCode) return [];
  return anchorNames && anchor !== name && !ITEM_KIND.test(anchor as string) ? [anchor as string, name] : [name];
}

/** rustdoc's anchors name an item's kind before its name (`method.entry`, `structfield.len`): a kind, not a namespace. */
const ITEM_KIND = /^(?:method|tymethod|structfield|variant|associatedtype|associatedconstant|impl)\./;

/**
 * A heading that is one capitalised word and nothing else ("Syntax", "Description") is a
 * section's title, even when its id repeats it: Apache's directive dictionary heads its
 * sections so, and every directive's table links to them, so as API entries they took the
 * popularity of a template's links. A declared name keeps its keyword ("type Decoder").
 */
function isTitleWord(heading: string, name: string): boolean {
  return heading.trim() === name && /^\p{Lu}\p{Ll}+$/u.test(name);
}
