import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../../core/errors.js';
import { plural } from '../../core/plural.js';
import type { Engine } from '../../engine/engine.js';
import { loadBeir, loadQuestions } from '../../eval/datasets.js';
import { evaluateBeir, evaluateQuestions, type EvalReport } from '../../eval/run-eval.js';
import { evaluateAnswers } from '../../eval/answer-eval.js';

export interface EvalFlags {
  qrels?: string;
  split: string;
  questions?: string;
  site?: string;
  baseline?: string;
  saveBaseline?: string;
  library?: string;
  version?: string;
  /** Also ask every question and score what the answer cites (needs --questions). */
  answers?: boolean;
}

export interface EvalOutput {
  dataset: string;
  queries: number;
  metrics: Record<string, number>;
  config: unknown;
  ingest?: { seconds: number; pages: number; chunks: number };
  baseline?: { file: string; metrics: Record<string, number> };
}

/** Runs one evaluation; `makeEngine` receives the index path to use (a temporary one unless --db is given). */
export async function runEval(flags: EvalFlags, dbPath: string | undefined, makeEngine: (dbPath: string) => Engine, log: (line: string) => void): Promise<EvalOutput> {
  if ((flags.qrels === undefined) === (flags.questions === undefined)) {
    throw new UsageError('Give either --qrels <BEIR folder> or --questions <file.jsonl> --site <url>.');
  }
  if (flags.answers === true && flags.questions === undefined) throw new UsageError('--answers needs --questions <file.jsonl> --site <url>: it scores the cited sections against gold page#anchor paths.');
  if (flags.questions !== undefined && flags.site === undefined) throw new UsageError('--questions needs --site <url>: the gold paths are relative to it.');
  // Read the baseline first: a bad file should not cost a whole evaluation run.
  const baseline = flags.baseline === undefined ? undefined : { file: flags.baseline, metrics: readBaseline(flags.baseline) };
  const scratch = dbPath === undefined ? mkdtempSync(join(tmpdir(), 'citedocs-eval-')) : undefined;
  const engine = makeEngine(dbPath ?? join(scratch as string, 'eval.db'));
  try {
    let report: EvalReport;
    let ingest: EvalOutput['ingest'];
    const started = performance.now();
    if (flags.qrels !== undefined) {
      const dataset = loadBeir(flags.qrels, flags.split);
      log(`indexing ${plural(dataset.corpus.length, 'document')} of ${dataset.name}…`);
      const ingested = await engine.ingestDocuments(dataset.corpus.map((document) => ({ url: `corpus:${encodeURIComponent(document.id)}`, title: document.title, markdown: document.text })));
      ingest = { seconds: round((performance.now() - started) / 1000), pages: ingested.pages, chunks: ingested.chunks };
      log(`running ${plural(dataset.queries.length, 'query', 'queries')}…`);
      report = await evaluateBeir(engine, dataset);
    } else {
      const questions = loadQuestions(flags.questions as string);
      const site = flags.site as string;
      if ((await engine.countPagesUnder(site)) === 0) {
        log(`crawling ${site}…`);
        const crawled = await engine.ingest(site, scopeOf(flags));
        ingest = { seconds: round((performance.now() - started) / 1000), pages: crawled.pages, chunks: crawled.chunks };
      }
      // An index crawled before may lack the vectors of the embedder asked for.
      if (engine.config.embed.embedder !== undefined && engine.config.embed.embedder !== 'none') {
        const embedded = await engine.embed();
        if (embedded.embedded > 0) log(`embedded ${plural(embedded.embedded, 'passage')} with ${embedded.model}`);
      }
      log(`running ${plural(questions.length, 'question')}…`);
      report = await evaluateQuestions(engine, questions, site, flags.questions as string, scopeOf(flags));
      if (flags.answers === true) {
        log(`answering ${questions.length} questions…`);
        const answers = await evaluateAnswers(engine, questions, site);
        report = { ...report, metrics: { ...report.metrics, ...answers.metrics } };
      }
    }
    const { dbPath: _dbPath, ...config } = engine.config;
    const output: EvalOutput = { dataset: report.dataset, queries: report.queries, metrics: report.metrics, config, ...(ingest === undefined ? {} : { ingest }) };
    if (baseline !== undefined) output.baseline = baseline;
    if (flags.saveBaseline !== undefined) writeFileSync(flags.saveBaseline, `${JSON.stringify({ ...output, baseline: undefined, perQuery: report.perQuery }, null, 2)}\n`);
    return output;
  } finally {
    await engine.close();
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}

function readBaseline(file: string): Record<string, number> {
  if (!existsSync(file)) throw new UsageError(`The baseline ${file} does not exist. Save one with --save-baseline.`);
  let parsed: { metrics?: unknown };
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as { metrics?: unknown };
  } catch (error) {
    throw new UsageError(`The baseline ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Save one with --save-baseline.`, { cause: error });
  }
  const metrics = z.record(z.string(), z.number()).safeParse(parsed.metrics);
  if (!metrics.success) throw new UsageError(`${file} is not a citedocs eval baseline (no "metrics" of numbers). Save one with --save-baseline.`);
  return metrics.data;
}

/** A metrics table; with a baseline, a column of differences. */
export function formatEval(output: EvalOutput): string {
  const lines = [`${output.dataset}: ${plural(output.queries, 'query', 'queries')}${output.ingest ? ` (indexed ${plural(output.ingest.pages, 'page')}, ${plural(output.ingest.chunks, 'chunk')} in ${output.ingest.seconds} s)` : ''}`, ''];
  const baseline = output.baseline?.metrics;
  lines.push(`${'metric'.padEnd(14)} ${'value'.padStart(9)}${baseline ? `  ${'baseline'.padStart(9)}  ${'change'.padStart(8)}` : ''}`);
  for (const [name, value] of Object.entries(output.metrics)) {
    const before = baseline?.[name];
    const change = before === undefined ? '' : `  ${String(before).padStart(9)}  ${`${value - before >= 0 ? '+' : ''}${(value - before).toFixed(4)}`.padStart(8)}`;
    lines.push(`${name.padEnd(14)} ${String(value).padStart(9)}${baseline ? change : ''}`);
  }
  return lines.join('\n');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function scopeOf(flags: EvalFlags): { library?: string; version?: string } {
  return { ...(flags.library === undefined ? {} : { library: flags.library }), ...(flags.version === undefined ? {} : { version: flags.version }) };
}
