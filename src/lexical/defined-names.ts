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
  const [first, ...others] = signatures(heading);
  const names = namesOf(first ?? heading, chunk.anchor);
  const namespace = /^(.+(?:\.|::))[^.:]+$/u.exec(chunk.anchor ?? '')?.[1];
  for (const other of others) {
    for (const name of namesOf(other, undefined)) {
      names.push(name);
      if (namespace !== undefined && !/[.:]/.test(name) && IDENTIFIER.test(chunk.anchor ?? '')) names.push(`${namespace}${name}`);
    }
  }
  return [...new Set(names)];
}

/** A heading's signatures: split at "; " outside brackets (Rust's `[T; N]` is one), as `markSections` joins them. */
function signatures(heading: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < heading.length; index += 1) {
    const char = heading[index];
    if (char === '(' || char === '[' || char === '<' || char === '{') depth += 1;
    else if ((char === ')' || char === ']' || char === '>' || char === '}') && depth > 0) depth -= 1;
    else if (char === ';' && depth === 0 && heading[index + 1] === ' ') {
      parts.push(heading.slice(start, index).trim());
      start = index + 2;
    }
  }
  parts.push(heading.slice(start).trim());
  return parts.filter(Boolean);
}

function namesOf(heading: string, anchor: string | undefined): string[] {
  const match = SIGNATURE.exec(heading);
  const name = match?.[1];
  if (name === undefined) return [];
  const anchorNames = anchor !== undefined && IDENTIFIER.test(anchor) && (anchor === name || anchor.endsWith(`.${name}`) || anchor.endsWith(`::${name}`));
  const looksLikeCode = match?.[2] !== undefined || /[.:#_]/.test(name) || anchorNames;
  if (!looksLikeCode) return [];
  return anchorNames && anchor !== name ? [anchor as string, name] : [name];
}
