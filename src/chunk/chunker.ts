import { sha256 } from '../core/hash.js';
import type { Chunk, Heading, Page, Tokenizer } from '../core/types.js';
import { type Block, type Section, splitSections } from './sections.js';

export interface ChunkerOptions {
  /** Target size; a code block, table or list item larger than this becomes its own chunk. */
  maxTokens: number;
  tokenizer: Tokenizer;
}

/** A unit the packer never splits, and how it joins the unit before it. */
interface Piece {
  text: string;
  tokens: number;
  joiner: string;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Heading-aware, token-aware chunking: sections are the unit; a section over the budget
 * splits between blocks, then list items, then sentences. Fenced code and tables are never
 * split. Every chunk carries the page URL and the anchor of its section, fixed here.
 */
export function chunkPage(
  page: Pick<Page, 'url' | 'title' | 'markdown'> & { headings: readonly Heading[] },
  options: ChunkerOptions,
): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of splitSections(page.markdown, page.headings)) {
    for (const { text, tokens } of packSection(section, options)) {
      const ordinal = chunks.length;
      const contentHash = sha256(text);
      chunks.push({
        id: sha256(`${page.url}\n${ordinal}\n${contentHash}`).slice(0, 24),
        pageUrl: page.url,
        pageTitle: page.title,
        ...(section.anchor === undefined ? {} : { anchor: section.anchor }),
        headingPath: section.headingPath,
        text,
        tokenCount: tokens,
        contentHash,
      });
    }
  }
  return chunks;
}

/** The chunks of one section, each with its exact token count. */
function packSection(section: Section, options: ChunkerOptions): { text: string; tokens: number }[] {
  const { tokenizer, maxTokens } = options;
  const header = section.headingLine ?? '';
  const blocks = section.blocks.map((block) => block.text.trim()).filter((text) => text !== '');
  if (blocks.length === 0) return [];
  // Most sections fit whole: one tokenizer pass instead of one per block and one per chunk.
  // Text over ~6 characters per token of budget cannot fit: skip the pass that would say so.
  const whole = withHeader(header, blocks.join('\n\n'));
  if (whole.length <= maxTokens * 6) {
    const wholeTokens = tokenizer.count(whole);
    if (wholeTokens <= maxTokens) return [{ text: whole, tokens: wholeTokens }];
  }

  const headerTokens = tokenizer.count(header);
  // The heading is repeated on every chunk of its section; leave room for the body anyway.
  const budget = Math.max(maxTokens - headerTokens, Math.floor(maxTokens / 2));
  const pieces = section.blocks.flatMap((block) => piecesOf(block, budget, tokenizer));
  if (pieces.length === 0) return [];

  const texts: string[] = [];
  let body = '';
  let bodyTokens = 0;
  for (const piece of pieces) {
    // A short lead-in (a caption, "For example:") stays with the oversized block it introduces.
    const keepWithNext = piece.tokens > budget && bodyTokens < budget / 4;
    if (body !== '' && bodyTokens + piece.tokens > budget && !keepWithNext) {
      texts.push(withHeader(header, body));
      body = '';
      bodyTokens = 0;
    }
    body = body === '' ? piece.text : body + piece.joiner + piece.text;
    bodyTokens += piece.tokens;
  }
  if (body !== '') texts.push(withHeader(header, body));
  return texts.map((text) => ({ text, tokens: tokenizer.count(text) }));
}

function withHeader(header: string, body: string): string {
  return header === '' ? body : `${header}\n\n${body}`;
}

function piecesOf(block: Block, budget: number, tokenizer: Tokenizer): Piece[] {
  const text = block.text.trim();
  if (text === '') return [];
  const tokens = tokenizer.count(text);
  if (tokens <= budget || block.kind === 'code' || block.kind === 'table') return [{ text, tokens, joiner: '\n\n' }];
  if (block.kind === 'list' && block.items !== undefined && block.items.length > 1) {
    return block.items.map((item, index) => ({ text: item, tokens: tokenizer.count(item), joiner: index === 0 ? '\n\n' : '\n' }));
  }
  return splitProse(text, budget, tokenizer);
}

/** Prose over the budget: whole sentences, and a sentence over the budget by words. */
function splitProse(text: string, budget: number, tokenizer: Tokenizer): Piece[] {
  const pieces: Piece[] = [];
  for (const { segment } of sentences.segment(text)) {
    const sentence = segment.trim();
    if (sentence === '') continue;
    const joiner = pieces.length === 0 ? '\n\n' : ' ';
    const tokens = tokenizer.count(sentence);
    if (tokens <= budget) {
      pieces.push({ text: sentence, tokens, joiner });
      continue;
    }
    let window: string[] = [];
    for (const word of sentence.split(/\s+/)) {
      window.push(word);
      if (window.length >= 8 && tokenizer.count(window.join(' ')) > budget) {
        const last = window.pop() as string;
        const windowText = window.join(' ');
        pieces.push({ text: windowText, tokens: tokenizer.count(windowText), joiner: pieces.length === 0 ? '\n\n' : ' ' });
        window = [last];
      }
    }
    const rest = window.join(' ');
    if (rest !== '') pieces.push({ text: rest, tokens: tokenizer.count(rest), joiner: pieces.length === 0 ? '\n\n' : ' ' });
  }
  return pieces;
}
