import type { AskResponse, PageInspection, SearchResponse } from '../../engine/engine.js';
import type { EmbedReport } from '../../engine/embed-pass.js';
import type { IngestReport } from '../../engine/ingest.js';
import type { IndexStats } from '../../engine/engine.js';
import type { StoppedBy } from '../../core/types.js';
import type { IngestRunSummary } from '../../store/store.js';
import { formatSourcesList } from '../../answer/citations/process.js';
import { plural } from '../../core/plural.js';
import { redactPasswords } from '../../core/redact.js';
import type { Usage } from '../../engine/usage.js';

export function formatSearch(response: SearchResponse, explain: boolean): string {
  const lines: string[] = [];
  if (response.pages !== undefined) lines.push(...formatPageGroups(response));
  else response.results.forEach((result, index) => {
    const path = [result.title, ...result.headingPath.filter((heading) => heading !== result.title)].join(' › ');
    lines.push(`${index + 1}. ${path}  (score ${result.score.toFixed(2)}, ${plural(result.tokenCount, 'token')})`);
    lines.push(`   ${result.url}`);
    lines.push(`   ${preview(result.text)}`);
    if (explain) for (const step of result.explain ?? []) lines.push(`   · ${step.technique} #${step.rank} score ${step.score.toFixed(4)}${step.detail ? ` (${step.detail})` : ''}`);
    lines.push('');
  });
  if (response.results.length === 0) lines.push('No results.');
  if (explain && response.selection !== undefined) {
    lines.push(`Selected ${plural(response.results.length, 'passage')}, ${plural(response.selection.totalTokens, 'token')}. Left out:`);
    for (const drop of response.selection.dropped.slice(0, 20)) {
      const why = drop.reason === 'duplicate' ? `duplicate of ${drop.duplicateOf ?? '?'} (similarity ${drop.similarity ?? 1})` : drop.reason;
      lines.push(`   - ${drop.url}: ${why}${drop.score === undefined ? '' : `, score ${drop.score}`}`);
    }
    if (response.selection.dropped.length > 20) lines.push(`   … and ${response.selection.dropped.length - 20} more (see --json).`);
    lines.push(formatUsage(response.usage));
  }
  // Warnings go to stderr (see main.ts): stdout holds the passages only.
  return lines.join('\n').trimEnd();
}

/** `search --group-by-page`: each page once (title, URL), then its sections, numbered as in the flat list. */
function formatPageGroups(response: SearchResponse): string[] {
  const number = new Map(response.results.map((result, index) => [result.url, index + 1]));
  const lines: string[] = [];
  for (const page of response.pages ?? []) {
    lines.push(`${page.title}  (${page.library}@${page.version}, ${plural(page.sections.length, 'section')}, ${plural(page.tokenCount, 'token')})`);
    lines.push(`   ${page.url}`);
    for (const section of page.sections) {
      const path = section.headingPath.filter((heading) => heading !== section.title).join(' › ') || section.title;
      lines.push(`   ${number.get(section.url) ?? '?'}. ${path}  (score ${section.score.toFixed(2)}, ${plural(section.tokenCount, 'token')})`);
      lines.push(`      ${section.url}`);
      lines.push(`      ${preview(section.text)}`);
    }
    lines.push('');
  }
  return lines;
}

/** What follows the answer's text (printed as it streams): its sources list and, with --explain, the selection and the model calls' usage. */
export function formatAskEnd(response: AskResponse): string {
  const list = formatSourcesList(response.citations);
  const lines = [list === '' ? '' : `\n\n${list}`];
  if (response.selection.dropped !== undefined) {
    lines.push('', `Selected ${plural(response.selection.sources.length, 'source')}, ${plural(response.selection.totalTokens, 'token')}:`);
    for (const source of response.selection.sources) lines.push(`   + ${source.url} (score ${source.score}, ${plural(source.tokenCount, 'token')})`);
    for (const drop of response.selection.dropped.slice(0, 20)) lines.push(`   - ${drop.url}: ${drop.reason}${drop.duplicateOf === undefined ? '' : ` of ${drop.duplicateOf}`}`);
    lines.push(formatUsage(response.usage));
  }
  return lines.join('\n');
}

/** "Model calls: 2 LLM (1,204 prompt + 88 completion tokens, 930 ms); 1 embedding (9 tokens, 41 ms)." */
export function formatUsage(usage: Usage): string {
  const { llm, embedding } = usage;
  if (llm.calls === 0 && embedding.calls === 0) return 'Model calls: none.';
  const parts: string[] = [];
  if (llm.calls > 0) parts.push(`${plural(llm.calls, 'LLM call')} (${llm.promptTokens} prompt + ${plural(llm.completionTokens, 'completion token')}, ${Math.round(llm.ms)} ms)`);
  if (embedding.calls > 0) parts.push(`${plural(embedding.calls, 'embedding call')} (${plural(embedding.tokens, 'token')}, ${Math.round(embedding.ms)} ms)`);
  return `Model calls: ${parts.join('; ')}.`;
}

export function formatIngest(report: IngestReport, stats: IndexStats | undefined): string {
  const verb = report.interrupted ? 'Interrupted after' : report.stopped !== undefined ? 'Stopped after' : 'Ingested';
  const lines = [
    `${verb} ${plural(report.pages, 'page')} (${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ${report.removed} removed; ${plural(report.fetched, 'body', 'bodies')} fetched), ${plural(report.chunks, 'chunk')}.`,
  ];
  if (report.library !== undefined) lines.push(`Stored as ${report.library}@${report.version ?? 'latest'} (citedocs sources lists every library and version).`);
  if (report.stoppedBy !== undefined) lines.push(formatStoppedBy(report.stoppedBy));
  if (report.duplicates > 0) lines.push(report.duplicates === 1 ? '1 page repeats the content of another page and is kept as its alias.' : `${report.duplicates} pages repeat the content of another page and are kept as its aliases.`);
  // With a limit's notice, that notice says what is left and how to go on.
  if (report.stoppedBy === undefined && report.queued !== undefined) lines.push(`${plural(report.queued, 'URL')} ${report.queued === 1 ? 'is' : 'are'} still queued: run the same ingest again to continue.`);
  else if (report.stoppedBy === undefined && (report.interrupted || report.stopped !== undefined)) lines.push('Run the same ingest again to resume where it stopped.');
  if (stats !== undefined) lines.push(`Index: ${indexCounts(stats)}.`);
  if (report.embedding !== undefined) lines.push(formatEmbed(report.embedding));
  else if (stats !== undefined) lines.push('Search: BM25F over titles, headings, API names, code and text (no embedder; add --embedder use, transformers:<model> or openai:<model> for semantic search).');
  if (report.errors.length > 0) {
    lines.push(`${report.errors.length} could not be ingested:`);
    for (const error of report.errors.slice(0, 20)) lines.push(`  - ${error.message}`);
    if (report.errors.length > 20) lines.push(`  … and ${report.errors.length - 20} more (see --json).`);
  }
  for (const warning of report.warnings.slice(0, 20)) lines.push(`warning: ${warning}`);
  if (report.warnings.length > 20) lines.push(`warning: … and ${report.warnings.length - 20} more (see --json).`);
  return lines.join('\n');
}

export function formatEmbed(report: EmbedReport): string {
  const parts = [`Embeddings (${report.model}): ${plural(report.embedded, 'passage')} embedded`];
  if (report.reused > 0) parts.push(`, ${report.reused} of them from the cache`);
  if (report.switchedFrom !== undefined) parts.push(`; replaced the vectors of ${report.switchedFrom}`);
  parts.push(report.pending > 0 ? `; ${report.pending} still without a vector: run \`citedocs embed\` to finish.` : '.');
  return parts.join('');
}

export function formatStats(stats: IndexStats, path: string): string {
  const lines = [`${redactPasswords(path)}: ${indexCounts(stats)}`];
  for (const run of stats.ingests) if (!run.complete) lines.push(`warning: the last ingest of ${run.source} is incomplete: ${describeIncomplete(run)}`);
  return lines.join('\n');
}

/** The notice of an ingest a limit ended early: which limit, its value, what is left, how to go on. */
export function formatStoppedBy(stoppedBy: StoppedBy): string {
  const setting = stoppedBy.setting === undefined ? '' : `, setting ${stoppedBy.setting}`;
  if (stoppedBy.unit === 'files') {
    return `Not complete: ${stoppedBy.flag} ${stoppedBy.value} ended this run with ${plural(stoppedBy.remaining, 'file')} not read. Run it again with a larger ${stoppedBy.flag}, or without it (folders have no limit by default), to ingest them.`;
  }
  return `Not complete: the page budget (${stoppedBy.flag} ${stoppedBy.value}${setting}) ended this run with ${plural(stoppedBy.remaining, 'URL')} still queued. The index is usable; run the same ingest again to continue where it stopped, or raise ${stoppedBy.flag}.`;
}

function describeIncomplete(run: IngestRunSummary): string {
  if (run.stoppedBy !== undefined) {
    const left = run.stoppedBy.unit === 'files' ? `${run.stoppedBy.remaining} files not read` : `${run.stoppedBy.remaining} URLs still queued`;
    return `${run.stoppedBy.flag} ${run.stoppedBy.value} ended it with ${left}; ${run.stoppedBy.resumes ? 'run the same ingest again to continue' : `run it again with a larger ${run.stoppedBy.flag}, or without it`}.`;
  }
  if (run.outcome === 'interrupted') return 'it was interrupted; run the same ingest again to continue.';
  if (run.outcome === 'stopped') return `${run.reason ?? 'the source gave up'}.`;
  return 'it did not finish (it is still running, or it was killed); run the same ingest again to resume.';
}

function indexCounts(stats: IndexStats): string {
  return `${plural(stats.pages, 'page')}, ${plural(stats.chunks, 'chunk')}, ${plural(stats.anchors, 'anchor')}, ${(stats.bytes / 1024 / 1024).toFixed(1)} MB`;
}

function preview(text: string): string {
  const flat = text.replace(/^#{1,6}\s.*$/m, '').replace(/\s+/g, ' ').trim();
  return flat.length > 240 ? `${flat.slice(0, 239)}…` : flat;
}

export function formatInspection(page: PageInspection): string {
  const lines = [`${page.title}`, page.url, `${plural(page.anchors.length, 'anchor')}, ${plural(page.chunks.length, 'chunk')}`, ''];
  page.chunks.forEach((chunk, index) => {
    lines.push(`${index + 1}. ${chunk.headingPath.join(' › ') || '(before the first heading)'}  #${chunk.anchor ?? ''}  (${plural(chunk.tokenCount, 'token')})`);
    lines.push(`   ${preview(chunk.text)}`);
  });
  return lines.join('\n');
}
