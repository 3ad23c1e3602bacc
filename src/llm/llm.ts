import { CitedocsError } from '../core/errors.js';

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  messages: LlmMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object reply (response_format json_object); a provider without it may ignore the hint. */
  json?: boolean;
  abortSignal?: AbortSignal;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface LlmResponse {
  text: string;
  /** The model that answered, as the server names it. */
  model: string;
  usage?: LlmUsage;
}

export interface Llm {
  /** e.g. "openai-compatible:gpt-4o-mini" */
  readonly modelId: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
  /** Token deltas as they arrive; the concatenation equals what complete() would return. */
  stream(request: LlmRequest): AsyncIterable<string>;
}

/** An LLM call that failed after its retries: the message names the URL and model and what to try. */
export class LlmError extends CitedocsError {
  override readonly name = 'LlmError';
  /** HTTP status of the last answer, when the server answered at all. */
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    if (options.status !== undefined) this.status = options.status;
  }
}
