import { parseJsonReply } from '../llm/parse-json.js';
import { clamp01 } from './reranker.js';

/**
 * The relevance score the model gave each of `count` numbered passages (numbered from 1 in
 * the prompt), clamped to [0, 1]; undefined where the reply gives none. Accepts, in order of
 * preference: JSON (`{"scores":[0.9,0.1]}`, `[0.9,0.1]`, `{"1":0.9}`,
 * `[{"id":1,"score":0.9}]`), numbered lines (`1: 0.9`, `[2] 0.1`, `Passage 3 - 0.4`), and
 * exactly `count` bare numbers.
 */
export function parseScoreList(text: string, count: number): (number | undefined)[] {
  const empty = (): (number | undefined)[] => new Array<number | undefined>(count).fill(undefined);
  const reply = text.replace(/<think>[\s\S]*?<\/think>/gi, '');
  // "[1] 0.9\n[3] 0.5" holds bracketed spans that parse as JSON: numbered lines go first.
  const fromLines = scoresFromLines(reply, empty());
  if (fromLines !== undefined && fromLines.filter((score) => score !== undefined).length > 1) return fromLines;
  const fromJson = scoresFromJson(parseJsonReply(text), count, empty());
  if (fromJson !== undefined) return fromJson;
  if (fromLines !== undefined) return fromLines;
  const bare = [...reply.matchAll(/(?<![\w.])-?(?:\d+(?:\.\d+)?|\.\d+)(?!\w|\.\d)/g)].map((match) => Number(match[0]));
  // A run of numbers is only trusted when there is one per passage: otherwise which is which is a guess.
  return bare.length === count ? bare.map(clamp01) : empty();
}

/** The scores in a JSON reply, or undefined when it holds none. */
function scoresFromJson(value: unknown, count: number, scores: (number | undefined)[]): (number | undefined)[] | undefined {
  if (Array.isArray(value)) {
    let found = false;
    value.forEach((item, position) => {
      const direct = toScore(item);
      const entry = direct === undefined ? scoredEntry(item) : { index: position, score: direct };
      if (entry === undefined || entry.index < 0 || entry.index >= count) return;
      scores[entry.index] = entry.score;
      found = true;
    });
    return found ? scores : undefined;
  }
  if (typeof value !== 'object' || value === null) return count === 1 && toScore(value) !== undefined ? [toScore(value)] : undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['scores', 'relevance', 'ratings', 'results', 'passages']) {
    if (Array.isArray(record[key])) return scoresFromJson(record[key], count, scores);
  }
  // {"1": 0.9, "2": 0.1}: keys are the passage numbers.
  let found = false;
  for (const [key, item] of Object.entries(record)) {
    const number = Number(key);
    const score = toScore(item);
    if (!Number.isInteger(number) || number < 1 || number > count || score === undefined) continue;
    scores[number - 1] = score;
    found = true;
  }
  if (found) return scores;
  const arrays = Object.values(record).filter(Array.isArray);
  if (arrays.length === 1) return scoresFromJson(arrays[0], count, scores);
  const single = toScore(record['score'] ?? record['relevance']);
  return count === 1 && single !== undefined ? [single] : undefined;
}

/** `{ "id": 2, "score": 0.4 }` (id, index, passage or n; numbered from 1) as a 0-based entry. */
function scoredEntry(item: unknown): { index: number; score: number } | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  const number = Number(record['id'] ?? record['index'] ?? record['passage'] ?? record['n']);
  const score = toScore(record['score'] ?? record['relevance']);
  return Number.isInteger(number) && score !== undefined ? { index: number - 1, score } : undefined;
}

function scoresFromLines(text: string, scores: (number | undefined)[]): (number | undefined)[] | undefined {
  // "1: 0.9", "[2] 0.1", "- Passage 3 = 0.4", "4. 0.75": a passage number, a separator, a score.
  const line = /^[\s*-]*(?:passage\s*)?#?\s*[[(]?(\d+)[\])]?(?:\s*[:=–-]\s*|\.\s+|\s+)(-?(?:\d+(?:\.\d+)?|\.\d+))(?![\d.])/gim;
  let found = false;
  for (const match of text.matchAll(line)) {
    const index = Number(match[1]) - 1;
    const score = toScore(match[2]);
    if (index < 0 || index >= scores.length || score === undefined || scores[index] !== undefined) continue;
    scores[index] = score;
    found = true;
  }
  return found ? scores : undefined;
}

function toScore(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? clamp01(number) : undefined;
}
