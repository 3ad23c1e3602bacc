import { chunkUrl, type Candidate, type Citation } from '../core/types.js';
import { type AnswerPlan, type Piece, planAnswer } from './extractive-plan.js';
import { questionWords, termsOf } from './question-coverage.js';

export interface ExtractiveOptions {
  /** Sentences quoted at most. */
  maxSentences: number;
  /** Tokens the answer may take (`answer.maxAnswerTokens`), the list of sources not counted. */
  maxTokens?: number;
  /** Counts tokens as the target model does; without it, about four characters a token. */
  countTokens?: (text: string) => number;
}

export interface DraftAnswer {
  text: string;
  citations: Citation[];
}

/** Room kept in the budget for citation marks, labels and the note on what is missing. */
const RESERVED_TOKENS = 60;

/**
 * The answer without an LLM, quoted from the selected passages in their rank order: the best
 * section leads (an API entry's signature and first sentence, or the section's first sentence),
 * then the sentences that cover most of the question, then the code example that shows it, then
 * what other sources add, each sentence followed by the `[n]` of its source (never inside code or
 * a quotation: marks follow whole sentences and code blocks). Ends by naming the question's words
 * no source states; says so first when no source states any. Within `maxTokens`.
 */
export function extractiveAnswer(question: string, sources: readonly Candidate[], options: ExtractiveOptions): DraftAnswer {
  if (sources.length === 0) return { text: '', citations: [] };
  const count = options.countTokens ?? ((text: string) => Math.ceil(text.length / 4));
  let room = (options.maxTokens ?? Number.POSITIVE_INFINITY) - RESERVED_TOKENS;
  const plan = planAnswer(question, sources, {
    maxSentences: options.maxSentences,
    reserve: (text) => {
      const tokens = count(text) + 3;
      if (tokens > room) return false;
      room -= tokens;
      return true;
    },
  });
  return render(question, sources, plan);
}

function render(question: string, sources: readonly Candidate[], plan: AnswerPlan): DraftAnswer {
  const numbering = citationNumbering(sources);
  const sentence = (piece: Piece) => `${piece.unit.opensLabel === true && piece.unit.label !== undefined ? `${piece.unit.label}: ` : ''}${piece.unit.text} [${numbering.numberOf(piece.source)}]`;
  const blocks: string[] = [];
  if (plan.nothingRelevant) {
    blocks.push('The indexed documentation does not seem to answer this: no passage found mentions the words of the question. The closest section found begins:');
  }
  blocks.push(...leadBlocks(plan, sources, sentence, numbering.numberOf));
  blocks.push(...exampleBlocks(plan, sentence, numbering.numberOf));
  blocks.push(...otherSourceBlocks(plan, sentence));
  const missing = questionWords(question, plan.missing);
  if (!plan.nothingRelevant && missing.length > 0) {
    blocks.push(`Not covered by the passages found: ${missing.map((word) => `“${word}”`).join(', ')}.`);
  }
  return { text: blocks.join('\n\n'), citations: numbering.citations };
}

/** Numbers sources in order of first use; passages of the same section share one URL, so they share one number. */
function citationNumbering(sources: readonly Candidate[]): { numberOf: (source: number) => number; citations: Citation[] } {
  const numbers = new Map<string, number>();
  const citations: Citation[] = [];
  const numberOf = (source: number): number => {
    const candidate = sources[source] as Candidate;
    const url = chunkUrl(candidate.chunk);
    let n = numbers.get(url);
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(url, n);
      citations.push({ n, url, ...(candidate.chunk.anchor === undefined ? {} : { anchor: candidate.chunk.anchor }), title: citationTitle(candidate) });
    }
    return n;
  };
  return { numberOf, citations };
}

/** The best section's signature (inline or as a block) and lead sentences, or a pointer to it when it has nothing to quote. */
function leadBlocks(plan: AnswerPlan, sources: readonly Candidate[], sentence: (piece: Piece) => string, numberOf: (source: number) => number): string[] {
  const blocks: string[] = [];
  const lead = plan.lead.map(sentence);
  const signature = plan.signature;
  if (signature?.kind === 'inline') {
    const opening = lead.shift();
    lead.unshift(opening === undefined ? `\`${signature.text}\` [${numberOf(0)}]` : `\`${signature.text}\`: ${opening}`);
  } else if (signature !== undefined) {
    blocks.push(lead.length === 0 ? `${signature.text}\n[${numberOf(0)}]` : signature.text);
  }
  if (lead.length > 0) blocks.push(lead.join(' '));
  else if (signature === undefined && !plan.example.some((piece) => piece.source === 0)) {
    // The best section has nothing to quote (a contents page, code alone): it still leads, as where to look.
    blocks.push(pointer(sources[0] as Candidate, plan.asked, numberOf(0)));
  }
  return blocks;
}

/** The code example (or table, or sentence) that shows the answer, each followed by its source's mark. */
function exampleBlocks(plan: AnswerPlan, sentence: (piece: Piece) => string, numberOf: (source: number) => number): string[] {
  return plan.example.map((piece) => {
    // After a table a blank line, or the mark would read as one more row.
    const mark = `[${numberOf(piece.source)}]`;
    return piece.unit.kind === 'code' ? `${piece.unit.text}\n${mark}` : piece.unit.kind === 'table' ? `${piece.unit.text}\n\n${mark}` : sentence(piece);
  });
}

/** What the other sources add: one paragraph per run of sentences from the same source. */
function otherSourceBlocks(plan: AnswerPlan, sentence: (piece: Piece) => string): string[] {
  const blocks: string[] = [];
  let paragraph: { source: number; parts: string[] } | undefined;
  for (const piece of plan.others) {
    if (paragraph?.source !== piece.source) {
      if (paragraph !== undefined) blocks.push(paragraph.parts.join(' '));
      paragraph = { source: piece.source, parts: [] };
    }
    paragraph.parts.push(sentence(piece));
  }
  if (paragraph !== undefined) blocks.push(paragraph.parts.join(' '));
  return blocks;
}

/** Links of a contents page at most named in its pointer. */
const MAX_POINTER_LINKS = 5;

/** A sentence naming the best section, and the links in it whose labels hold words of the question. */
function pointer(best: Candidate, asked: ReadonlySet<string>, n: number): string {
  const title = best.chunk.headingPath.at(-1) ?? best.chunk.pageTitle;
  const links = [...best.chunk.text.matchAll(/(?<!!)\[([^\]]+)\]\(([^)\s]+)\)/g)]
    .filter((match) => [...termsOf(match[1] ?? '')].some((term) => asked.has(term)))
    .slice(0, MAX_POINTER_LINKS)
    .map((match) => match[0]);
  return links.length === 0 ? `The best-matching section is ${title} [${n}].` : `The best-matching section, ${title} [${n}], links to ${links.join(', ')}.`;
}

/** "Page title › Section" when the passage is a section of the page, else the page title. */
export function citationTitle(candidate: Candidate): string {
  const section = candidate.chunk.headingPath.at(-1);
  const page = candidate.chunk.pageTitle;
  return section === undefined || section === page ? page : `${page} › ${section}`;
}
