import { describeCause } from '../errors.js';
import { type AttemptTimer, raceAbort, startAttemptTimer } from './retry.js';

/** `fetch` as citedocs calls it (injected, so tests and the address guard can stand in). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface AttemptOptions {
  fetch: FetchLike;
  /** The time limit of the attempt: its requests (a redirect chain) and the body read, until `clear()`. */
  timeoutMs: number;
  /** The caller's signal: aborting it ends the attempt at once. */
  signal?: AbortSignal | undefined;
}

/** Why a request or its body failed: the caller's abort, the attempt's time limit, or the cause in words. */
export interface AttemptFailure {
  error: unknown;
  aborted: boolean;
  timedOut: boolean;
  reason: string;
}

export type Sent = { kind: 'response'; response: Response } | ({ kind: 'failed' } & AttemptFailure);

/** One attempt of an HTTP call: its requests and body reads share one time limit and the caller's signal. */
export interface HttpAttempt {
  /** Aborts on the time limit or the caller's signal; pass it to body readers. */
  readonly timer: AttemptTimer;
  /** Sends a request; settles at the time limit or abort even when the fetch ignores its signal. */
  send(url: string, init: Omit<RequestInit, 'signal'>): Promise<Sent>;
  /** Settles like `promise` (a body read), or rejects as soon as the attempt is aborted or timed out. */
  bounded<T>(promise: Promise<T>): Promise<T>;
  /** Classifies an error thrown while sending or reading. */
  failure(error: unknown): AttemptFailure;
  /** Stops the time limit (always, when the attempt is over). */
  clear(): void;
}

export function startAttempt(options: AttemptOptions): HttpAttempt {
  const timer = startAttemptTimer(options.timeoutMs, options.signal);
  const failure = (error: unknown): AttemptFailure => {
    const aborted = options.signal?.aborted === true;
    const timedOut = !aborted && timer.timedOut;
    return { error, aborted, timedOut, reason: timedOut ? `timed out after ${options.timeoutMs} ms` : describeCause(error) };
  };
  return {
    timer,
    async send(url, init) {
      try {
        return { kind: 'response', response: await raceAbort(options.fetch(url, { ...init, signal: timer.signal }), timer.signal) };
      } catch (error) {
        return { kind: 'failed', ...failure(error) };
      }
    },
    bounded: (promise) => raceAbort(promise, timer.signal),
    failure,
    clear: () => timer.clear(),
  };
}

/** The body's bytes, or undefined once it passes `maxBytes` (the rest is not read). */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done: finished, value } = await reader.read();
    if (finished) return Buffer.concat(parts);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    parts.push(value);
  }
}

/** Content-Length over `maxBytes` (a body to refuse unread), or undefined when not declared or within. */
export function declaredOver(response: Response, maxBytes: number): string | undefined {
  const declared = response.headers.get('content-length');
  return declared !== null && Number(declared) > maxBytes ? declared : undefined;
}
