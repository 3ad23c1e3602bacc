import type { Llm } from '../llm/llm.js';
import { createOpenAiCompatibleLlm, type OpenAiCompatibleLlmOptions } from '../llm/openai-compatible.js';
import type { ChatHandler, ChatRequestBody, FakeOpenAiServer } from './fake-openai-server.js';

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

/** The text between <question> and </question>. */
export function questionOf(prompt: string): string {
  return /<question>\n([\s\S]*?)\n<\/question>/.exec(prompt)?.[1] ?? '';
}

/** A well-formed pointwise judge: {"scores": [...]} with `score(passage, question)` for each passage. */
export function pointwiseJudge(score: (body: string, question: string) => number): ChatHandler {
  return (body) => {
    const prompt = userMessage(body);
    return JSON.stringify({ scores: fencedItems(prompt).map((item) => score(item.body, questionOf(prompt))) });
  };
}

/** A well-formed listwise judge: {"ranking": [...]} of the candidates `pick` keeps, ordered by `pick`'s value, highest first. */
export function listwiseJudge(pick: (body: string, question: string) => number | undefined): ChatHandler {
  return (body) => {
    const prompt = userMessage(body);
    const ranked = fencedItems(prompt)
      .flatMap((item) => {
        const value = pick(item.body, questionOf(prompt));
        return value === undefined ? [] : [{ id: item.id, value }];
      })
      .sort((a, b) => b.value - a.value);
    return JSON.stringify({ ranking: ranked.map((item) => item.id) });
  };
}

/** The share of the question's words (3+ letters) the passage holds: a crude but deterministic relevance. */
export function overlap(body: string, question: string): number {
  const words = new Set(question.toLowerCase().match(/[a-z]{3,}/g) ?? []);
  const found = new Set((body.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((word) => words.has(word)));
  return words.size === 0 ? 0 : found.size / words.size;
}

/** An Llm on the fake server, fast to fail: no retries, 2 s per attempt, unless overridden. */
export function llmOn(server: FakeOpenAiServer, overrides: Partial<OpenAiCompatibleLlmOptions> = {}): Llm {
  return createOpenAiCompatibleLlm({ baseUrl: server.url, model: 'judge-model', timeoutMs: 2000, retries: 0, retryBaseDelayMs: 1, ...overrides });
}

/** Chat requests the server received, as the prompts sent. */
export function chatPrompts(server: FakeOpenAiServer): string[] {
  return server.requests.filter((request) => request.path.endsWith('/chat/completions')).map((request) => userMessage(request.body as ChatRequestBody));
}
