import type { ChatHandler, ChatRequestBody } from '../testing/fake-openai-server.js';

/** For tests: what the rank prompts look like to a model on the fake OpenAI-compatible server. */
export interface FencedItem {
  /** The number in the fence: from 1 for passages, from 0 for candidates. */
  id: number;
  /** Everything between the opening and the closing fence. */
  body: string;
}

export function userMessage(body: ChatRequestBody): string {
  return [...(body.messages ?? [])].reverse().find((message) => message.role === 'user')?.content ?? '';
}

/** The fenced passages (`<passage id="N">`) or candidates (`<candidate index="N">`) of a prompt. */
export function fencedItems(prompt: string): FencedItem[] {
  return [...prompt.matchAll(/<(passage|candidate) (?:id|index)="(\d+)">\n([\s\S]*?)\n<\/\1>/g)].map((match) => ({ id: Number(match[2]), body: match[3] ?? '' }));
}

/** A well-formed pointwise judge: {"scores": [...]} with `score(body)` for each passage. */
export function pointwiseJudge(score: (body: string) => number): ChatHandler {
  return (body) => JSON.stringify({ scores: fencedItems(userMessage(body)).map((item) => score(item.body)) });
}

/** A well-formed listwise judge: {"ranking": [...]} of the candidates `pick` keeps, ordered by `pick`'s value, highest first. */
export function listwiseJudge(pick: (body: string) => number | undefined): ChatHandler {
  return (body) => {
    const ranked = fencedItems(userMessage(body))
      .flatMap((item) => {
        const value = pick(item.body);
        return value === undefined ? [] : [{ id: item.id, value }];
      })
      .sort((a, b) => b.value - a.value);
    return JSON.stringify({ ranking: ranked.map((item) => item.id) });
  };
}

/** Scores by word overlap with a query: a crude but deterministic relevance. */
export function overlap(query: string): (body: string) => number {
  const words = new Set(query.toLowerCase().match(/[a-z]{3,}/g) ?? []);
  return (body) => {
    const found = new Set((body.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((word) => words.has(word)));
    return words.size === 0 ? 0 : Math.min(1, found.size / words.size);
  };
}
