import type { Chunk, TextField } from '../../core/types.js';
import { codeTerms, wordTerms } from '../../lexical/analyze.js';

/**
 * The fields a chunk is indexed under. Documentation has structure that plain BM25 over the
 * text throws away: which page it is on, which headings it sits under, which API it defines,
 * its code, and its prose. Each is weighted on its own at query time (BM25F).
 */
export const FIELDS = ['title', 'headings', 'identifiers', 'code', 'text'] as const;
export type Field = (typeof FIELDS)[number] & TextField;
export const FIELD_COUNT = FIELDS.length;

export interface ChunkFields {
  /** Terms of each field, in FIELDS order. */
  terms: string[][];
  /** Targets of the chunk's links (`page#anchor`, fragment decoded), each once. */
  links: string[];
}

const FENCE = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:^\1[^\n]*$|(?![\s\S]))/gm;
const INLINE_CODE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const LINK = /!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;
const AUTOLINK = /<(https?:\/\/[^>\s]+)>/g;
const HEADING_LINE = /^#{1,6}\s.*$/gm;
/** Words a signature heading may start with before the name: `class dict(**kwargs)`, `async def`, `static`. */
const SIGNATURE = /^(?:[a-z]+\s+)*?([\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::|#)[\p{L}_$][\p{L}\p{N}_$]*)*)\s*(\(.*\)|\[.*\])?\s*(?:(?:->|:|=).*)?$/u;
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/** Splits a chunk into its fields' terms and collects its link targets. */
export function fieldsOf(chunk: Pick<Chunk, 'pageUrl' | 'pageTitle' | 'headingPath' | 'anchor' | 'text'>): ChunkFields {
  const code: string[] = [];
  const links = new Set<string>();
  let prose = chunk.text.replace(FENCE, (_whole, _fence: string, body: string) => {
    code.push(body);
    return '\n';
  });
  prose = prose.replace(LINK, (_whole, text: string, target: string) => {
    const resolved = linkTarget(target, chunk.pageUrl);
    if (resolved !== undefined) links.add(resolved);
    return text;
  });
  prose = prose.replace(AUTOLINK, ' ');
  prose = prose.replace(INLINE_CODE, (_whole, _ticks: string, body: string) => {
    code.push(body);
    return ' ';
  });
  prose = prose.replace(HEADING_LINE, ' ');
  const own = chunk.anchor === undefined ? undefined : `${chunk.pageUrl}#${chunk.anchor}`;
  if (own !== undefined) links.delete(own);
  return {
    terms: [
      wordTerms(chunk.pageTitle),
      wordTerms(chunk.headingPath.join('\n')),
      identifierTerms(chunk),
      codeTerms(code.join('\n')),
      wordTerms(prose),
    ],
    links: [...links],
  };
}

/**
 * The API a chunk defines: the name in its deepest heading when that heading is a signature
 * (`os.path.join(path, *paths)`, `class dict(**kwargs)`, `datetime.min`), and the anchor when it
 * is the qualified name of that API (Sphinx's `<dt id="dict.items">`).
 */
export function definedNames(chunk: Pick<Chunk, 'headingPath' | 'anchor'>): string[] {
  const heading = chunk.headingPath.at(-1)?.trim();
  if (heading === undefined) return [];
  const match = SIGNATURE.exec(heading);
  const name = match?.[1];
  if (name === undefined) return [];
  const anchor = chunk.anchor;
  const anchorNames = anchor !== undefined && IDENTIFIER.test(anchor) && (anchor === name || anchor.endsWith(`.${name}`) || anchor.endsWith(`::${name}`));
  const looksLikeCode = match?.[2] !== undefined || /[.:#_]/.test(name) || anchorNames;
  if (!looksLikeCode) return [];
  return anchorNames && anchor !== name ? [anchor as string, name] : [name];
}

function identifierTerms(chunk: Pick<Chunk, 'headingPath' | 'anchor'>): string[] {
  const terms: string[] = [];
  for (const name of definedNames(chunk)) codeTerms(name.replaceAll('#', '.'), terms);
  return [...new Set(terms)];
}

function linkTarget(target: string, base: string): string | undefined {
  if (!target.includes('#')) return undefined;
  try {
    const url = new URL(target, base);
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (fragment === '' || (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:')) return undefined;
    url.hash = '';
    return `${url.href}#${fragment}`;
  } catch {
    return undefined;
  }
}
