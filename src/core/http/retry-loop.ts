import { abortableSleep, backoffMs } from './retry.js';

/** What one attempt came to: a value, or a failure worth trying again (with the server's Retry-After, if it sent one). */
export type AttemptResult<T, F> = { kind: 'done'; value: T } | { kind: 'retry'; failure: F; retryAfterMs?: number };

export interface RetryLoopOptions {
  /** Attempts after the first one. */
  retries: number;
  /** The first backoff; it doubles per retry (at most 30 s). A Retry-After replaces it. */
  baseDelayMs: number;
  /** The longest wait honoured between attempts. */
  maxWaitMs: number;
  /**
   * What a longer wait (a Retry-After over `maxWaitMs`) does: `give-up` ends the loop with
   * `wait-too-long` (a server asking for minutes is not coming back soon), `cap` waits `maxWaitMs`.
   */
  longWait: 'give-up' | 'cap';
  /** Aborting ends the loop with `aborted` after the attempt in flight; a wait ends at once. */
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type RetryOutcome<T, F> =
  | { kind: 'done'; value: T }
  | { kind: 'aborted' }
  /** Every attempt failed; `failure` is the last one's, after `attempts` attempts. */
  | { kind: 'exhausted'; failure: F; attempts: number }
  /** The server asked to wait `waitMs`, longer than `maxWaitMs`, and `longWait` is `give-up`. */
  | { kind: 'wait-too-long'; failure: F; attempts: number; waitMs: number };

/**
 * The one retry policy of citedocs' HTTP clients (crawler, web search, LLM, embedder): runs
 * `attempt` until it is done, the retries are spent, the server asks for too long a wait, or
 * the signal aborts. Waits are exponential from `baseDelayMs` unless the server's Retry-After
 * says otherwise. How each failure reads is the caller's; when to try again is decided here.
 */
export async function retryLoop<T, F>(attempt: (index: number) => Promise<AttemptResult<T, F>>, options: RetryLoopOptions): Promise<RetryOutcome<T, F>> {
  const sleep = options.sleep ?? abortableSleep;
  const aborted = (): boolean => options.signal?.aborted === true;
  for (let index = 0; ; index += 1) {
    const result = await attempt(index);
    if (result.kind === 'done') return result;
    if (aborted()) return { kind: 'aborted' };
    if (index >= options.retries) return { kind: 'exhausted', failure: result.failure, attempts: index + 1 };
    const wait = result.retryAfterMs ?? backoffMs(options.baseDelayMs, index);
    if (wait > options.maxWaitMs && options.longWait === 'give-up') return { kind: 'wait-too-long', failure: result.failure, attempts: index + 1, waitMs: wait };
    await sleep(Math.min(wait, options.maxWaitMs), options.signal);
    if (aborted()) return { kind: 'aborted' };
  }
}
