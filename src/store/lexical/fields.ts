import type { Chunk, TextField } from '../../core/types.js';
import { codeTerms, wordTerms } from '../../lexical/analyze.js';
import { operatorTerms } from '../../lexical/operators.js';
import { definedNames } from '../../lexical/defined-names.js';
import { linkTarget, replaceMarkdownLinks, withoutAutolinks } from '../../lexical/links.js';

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
const HEADING_LINE = /^#{1,6}\s.*$/gm;

/** Splits a chunk into its fields' terms and collects its link targets. */
export function fieldsOf(chunk: Pick<Chunk, 'pageUrl' | 'pageTitle' | 'headingPath' | 'anchor' | 'text'>): ChunkFields {
  const code: string[] = [];
  const inlineCode: string[] = [];
  const links = new Set<string>();
  let prose = chunk.text.replace(FENCE, (_whole, _fence: string, body: string) => {
    code.push(body);
    return '\n';
  });
  prose = replaceMarkdownLinks(prose, (text, target) => {
    const resolved = linkTarget(target, chunk.pageUrl);
    if (resolved !== undefined) links.add(resolved);
    return text;
  });
  prose = withoutAutolinks(prose);
  prose = prose.replace(INLINE_CODE, (_whole, _ticks: string, body: string) => {
    code.push(body);
    // A table cell's code has its pipes escaped (`\\|\\|`): the operator is `||`.
    inlineCode.push(body.replace(/\\\|/g, '|'));
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
      // Operators only from code in prose (`EXPR1 // EXPR2`): where a doc names one, not every use in an example.
      operatorTerms(inlineCode.join('\n'), codeTerms(code.join('\n'))),
      wordTerms(prose),
    ],
    links: [...links],
  };
}

function identifierTerms(chunk: Pick<Chunk, 'headingPath' | 'anchor'>): string[] {
  const terms: string[] = [];
  for (const name of definedNames(chunk)) codeTerms(name.replaceAll('#', '.'), terms);
  return [...new Set(terms)];
}
