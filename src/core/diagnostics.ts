import { logger } from './log.js';
import type { Stage } from './stages.js';

/**
 * Every warning citedocs gives, by its stable code: the stage it comes from and what it means.
 * A client acts on the code (the message is for people and may change wording); a code, once
 * published, keeps its meaning. `warnings` (strings) stays beside `diagnostics` in every result.
 */
export const DIAGNOSTIC_CODES = {
  // crawl / extract: pages read and stored, with something to know.
  'crawl.needs-render': { stage: 'crawl', meaning: 'Pages are empty until JavaScript runs; they were read without rendering (ingest again with --render).' },
  'crawl.empty-after-render': { stage: 'crawl', meaning: 'A page has next to no text even after its scripts ran.' },
  'crawl.noindex': { stage: 'crawl', meaning: 'Pages ask robots not to index them (<meta name="robots" content="noindex"> or X-Robots-Tag: noindex): their links were followed, their text was not stored.' },
  'crawl.source-listing': { stage: 'crawl', meaning: "Pages are a documentation generator's listing of the source code (their doc comments are the pages indexed): their links were followed, their text was not stored." },
  'crawl.hash-routes': { stage: 'crawl', meaning: "Pages link other pages by a route in the URL's fragment (#/api: a single-page app such as Docsify); a crawl reads a URL once, without its fragment, so those pages were not read (ingest the site's Markdown sources instead)." },
  'extract.nesting-flattened': { stage: 'extract', meaning: 'Markup nested too deep was kept as plain text.' },
  'extract.word-cut': { stage: 'extract', meaning: 'Words longer than the extraction limit were cut.' },
  // embed / retrieve: how the candidates were found.
  'embed.no-vectors-yet': { stage: 'embed', meaning: 'The index is set up for vectors but has none yet: the search used BM25 only (run citedocs embed).' },
  'embed.vectors-pending': { stage: 'embed', meaning: 'Some passages have no vector yet, so dense search cannot find them (run citedocs embed).' },
  'retrieve.technique-failed': { stage: 'retrieve', meaning: 'A retrieval technique failed; the others were used.' },
  'retrieve.follow-up-failed': { stage: 'retrieve', meaning: 'Adaptive follow-up retrieval failed; the first round was kept.' },
  'retrieve.coverage-failed': { stage: 'retrieve', meaning: "The question's word statistics could not be read; the passages kept their order without the coverage weighting." },
  'retrieve.no-match': { stage: 'retrieve', meaning: 'No passage in the index matches the query.' },
  // rank: each fallback of the reranking policy.
  'rank.reranker-failed': { stage: 'rank', meaning: 'The reranker failed; the fused-score order was kept.' },
  'rank.none-relevant': { stage: 'rank', meaning: 'The reranker judged no candidate relevant; the best few by fused score were kept.' },
  'rank.partial': { stage: 'rank', meaning: 'The reranker judged only some candidates; the rest follow in fused-score order.' },
  'rank.embedder-failed': { stage: 'rank', meaning: 'The embedder failed while scoring pages; they were scored lexically.' },
  'rank.pages-unjudged': { stage: 'rank', meaning: 'The reranker gave some pages no score (or failed); they were scored lexically.' },
  // select: the token budget.
  'budget.below-heading': { stage: 'select', meaning: 'Passages match, but the token budget is below even the best one’s heading (raise maxTokens).' },
  'budget.trimmed': { stage: 'select', meaning: 'The best passage was cut to its most relevant part to fit the token budget (raise maxTokens for all of it).' },
  // answer: the written answer and its links.
  'answer.llm-failed': { stage: 'answer', meaning: 'The LLM failed before writing; the answer quotes the sources instead.' },
  'answer.llm-stopped': { stage: 'answer', meaning: 'The LLM stopped before the end of its answer.' },
  'answer.link-corrected': { stage: 'answer', meaning: 'A link or citation that did not resolve to an indexed page and anchor was corrected or removed.' },
  // web: finding documentation on the web.
  'web.search-incomplete': { stage: 'web', meaning: 'The web search stopped early (blocked, failed, or a backend note).' },
  'web.no-results': { stage: 'web', meaning: 'The web search found nothing.' },
  'web.fetch-skipped': { stage: 'web', meaning: 'A search result could not be fetched (or was refused) and was skipped.' },
  'web.none-selected': { stage: 'web', meaning: 'No fetched page was selected (none relevant, or none fits the budget).' },
} as const satisfies Record<string, { stage: Stage; meaning: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** A warning as data: a stable `code`, the `stage` it comes from, and the `message` shown to people. */
export interface Diagnostic {
  code: DiagnosticCode;
  stage: Stage;
  message: string;
}

export function diagnostic(code: DiagnosticCode, message: string): Diagnostic {
  return { code, stage: DIAGNOSTIC_CODES[code].stage, message };
}

/** The `warnings` strings of a result: its diagnostics' messages, in order. */
export function messagesOf(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((entry) => entry.message);
}

/** Diagnostics and their `warnings` messages, side by side, as every result carries them. */
export function withWarnings(diagnostics: readonly Diagnostic[]): { warnings: string[]; diagnostics: Diagnostic[] } {
  return { warnings: messagesOf(diagnostics), diagnostics: [...diagnostics] };
}

/** Logs each diagnostic at warn in its stage's logger: every fallback taken is in the logs too. */
export function logDiagnostics(diagnostics: readonly Diagnostic[], fields: Record<string, unknown> = {}): void {
  for (const entry of diagnostics) logger(entry.stage).warn({ code: entry.code, ...fields }, entry.message);
}
