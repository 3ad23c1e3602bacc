/**
 * How the names of one entry documented under several (`operator.lt(a, b); operator.__lt__(a, b)`)
 * share its heading: the extract stage joins them with this separator, the index splits them back.
 */
export const SIGNATURE_SEPARATOR = '; ';

/** A heading's signatures: split at the separator outside brackets (Rust's `[T; N]` is one). */
export function splitSignatures(heading: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < heading.length; index += 1) {
    const char = heading[index] as string;
    if ('([<{'.includes(char)) depth += 1;
    else if (')]>}'.includes(char) && depth > 0) depth -= 1;
    else if (depth === 0 && heading.startsWith(SIGNATURE_SEPARATOR, index)) {
      parts.push(heading.slice(start, index).trim());
      start = index + SIGNATURE_SEPARATOR.length;
    }
  }
  parts.push(heading.slice(start).trim());
  return parts.filter(Boolean);
}
