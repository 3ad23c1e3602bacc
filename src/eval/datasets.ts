import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../core/errors.js';

export interface BeirDataset {
  name: string;
  corpus: { id: string; title: string; text: string }[];
  /** Queries that have judgements in the split, in file order. */
  queries: { id: string; text: string }[];
  /** query id → document id → graded relevance (> 0). */
  qrels: Map<string, Map<string, number>>;
}

export interface DocsQuestion {
  qid: string;
  query: string;
  /** Paths relative to the site URL, with the anchor: `library/functions.html#float`. */
  gold: string[];
}

const corpusLine = z
  .object({ _id: z.union([z.string(), z.number()]).transform(String), title: z.string().default(''), text: z.string() })
  .transform(({ _id, title, text }) => ({ id: _id, title, text }));
const queryLine = z.object({ _id: z.union([z.string(), z.number()]).transform(String), text: z.string() }).transform(({ _id, text }) => ({ id: _id, text }));
const questionLine = z.object({ qid: z.union([z.string(), z.number()]).transform(String), query: z.string().min(1), gold: z.array(z.string().min(1)).min(1) });

/** Reads a BEIR dataset folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv. */
export function loadBeir(directory: string, split = 'test'): BeirDataset {
  const qrels = new Map<string, Map<string, number>>();
  const qrelsFile = join(directory, 'qrels', `${split}.tsv`);
  readText(qrelsFile)
    .split('\n')
    .forEach((line, index) => {
      const [queryId, documentId, score] = line.trim().split('\t');
      if (index === 0 && queryId === 'query-id') return;
      if (queryId === undefined || queryId === '' || documentId === undefined) return;
      const relevance = Number(score ?? '1');
      if (!Number.isFinite(relevance)) throw new UsageError(`${qrelsFile}:${index + 1}: the score "${score}" is not a number.`);
      if (relevance <= 0) return;
      const judged = qrels.get(queryId) ?? new Map<string, number>();
      judged.set(documentId, relevance);
      qrels.set(queryId, judged);
    });
  const queries = readJsonLines(join(directory, 'queries.jsonl'), queryLine).filter((query) => qrels.has(query.id));
  const corpus = readJsonLines(join(directory, 'corpus.jsonl'), corpusLine);
  return { name: `${directory.replace(/\/+$/, '').split('/').at(-1) ?? directory}/${split}`, corpus, queries, qrels };
}

/** Reads docs questions: one `{"qid","query","gold":["page.html#anchor"]}` per line. */
export function loadQuestions(file: string): DocsQuestion[] {
  return readJsonLines(file, questionLine);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}). Check the path of the evaluation data.`, { cause: error });
  }
}

function readJsonLines<Schema extends z.ZodType>(file: string, schema: Schema): z.output<Schema>[] {
  return readText(file)
    .split('\n')
    .flatMap((line, index) => {
      if (line.trim() === '') return [];
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new UsageError(`${file}:${index + 1} is not valid JSON. Each line must be one JSON object.`);
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UsageError(`${file}:${index + 1}: ${issue?.path.join('.') || 'line'} ${issue?.message ?? 'is invalid'}.`);
      }
      return [parsed.data as z.output<Schema>];
    });
}
