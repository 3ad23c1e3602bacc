import type { Chunk } from '../core/types.js';
import type { TextUnit } from './units.js';

/** How an API entry shows what it is: its declaration. */
export interface Signature {
  /** Inline: one line to show as `code`; block: a whole fenced code block. */
  kind: 'inline' | 'block';
  text: string;
  /** The code unit it is, when it came from the passage's text rather than its heading. */
  unit?: TextUnit;
}

const SIGNATURE_LABELS = new Set(['syntax', 'synopsis', 'signature', 'prototype', 'declaration', 'usage']);
const MAX_SIGNATURE_LINES = 6;
const MAX_INLINE_LENGTH = 160;
/** Headings of API entries: called (`readlines(hint=-1)`), dotted, snake or camel names, or declared (`class Foo`). */
const API_HEADING =
  /^(?:(?:final |abstract |async )*(?:class|exception|function|method|attribute|data|decorator|property|classmethod|staticmethod|coroutinefunction|macro|struct|enum|typedef)\s+\S|[\p{L}_$][\p{L}\p{N}_$.:]*\s*\(|[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)+$|[\p{L}$]*_[\p{L}\p{N}_$]*$|\p{Ll}+\p{Lu}[\p{L}\p{N}]*$)/u;

/**
 * The signature of a passage that is an API entry: a short code block before any prose
 * (Doxygen prototypes, "Syntax:" blocks), or else the section heading when it declares a name
 * (Sphinx `json.dumps(obj, *, ...)`), qualified by its anchor when the anchor names the owner
 * (`readlines(hint=-1)` under `#io.IOBase.readlines`). Undefined for a passage that is prose.
 */
export function signatureOf(chunk: Pick<Chunk, 'text' | 'headingPath' | 'anchor'>, units: readonly TextUnit[]): Signature | undefined {
  const first = units[0];
  if (first?.kind === 'code' && (first.label === undefined || SIGNATURE_LABELS.has(first.label.toLowerCase()))) {
    const body = first.text.split('\n').slice(1, -1);
    if (body.length > 0 && body.length <= MAX_SIGNATURE_LINES) {
      const line = body.length === 1 ? (body[0] ?? '').trim() : '';
      return line !== '' && line.length <= MAX_INLINE_LENGTH && !line.includes('`') ? { kind: 'inline', text: line, unit: first } : { kind: 'block', text: first.text, unit: first };
    }
  }
  const heading = chunk.headingPath.at(-1)?.trim();
  if (heading === undefined || !/^\s*#{1,6}\s/.test(chunk.text) || !API_HEADING.test(heading)) return undefined;
  const text = qualified(heading, chunk.anchor);
  return text.length <= MAX_INLINE_LENGTH && !text.includes('`') ? { kind: 'inline', text } : { kind: 'block', text: `\`\`\`\n${text}\n\`\`\`` };
}

function qualified(heading: string, anchor: string | undefined): string {
  const name = /^[\p{L}_$][\p{L}\p{N}_$]*(?=\s*\(|$)/u.exec(heading)?.[0];
  if (name === undefined || anchor === undefined || !anchor.endsWith(`.${name}`)) return heading;
  return `${anchor}${heading.slice(name.length)}`;
}
