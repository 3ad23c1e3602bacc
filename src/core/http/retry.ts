/** Backoff before retry number `attempt` (0-based): base · 2^attempt, at most 30 s. */
export function backoffMs(baseDelayMs: number, attempt: number): number {
  return Math.min(baseDelayMs * 2 ** attempt, 30_000);
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or at once when the signal aborts (the caller checks the signal afterwards). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The time limit of one attempt, combined with the caller's signal. `restart()` turns it into
 * an idle limit (a stream may run long as long as deltas keep coming).
 */
export interface AttemptTimer {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  restart(): void;
  clear(): void;
}

export function startAttemptTimer(timeoutMs: number, callerSignal?: AbortSignal): AttemptTimer {
  const controller = new AbortController();
  let timedOut = false;
  const fire = (): void => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
  };
  let timer = setTimeout(fire, timeoutMs);
  return {
    signal: callerSignal === undefined ? controller.signal : AbortSignal.any([controller.signal, callerSignal]),
    get timedOut() {
      return timedOut;
    },
    restart() {
      if (timedOut) return;
      clearTimeout(timer);
      timer = setTimeout(fire, timeoutMs);
    },
    clear() {
      clearTimeout(timer);
    },
  };
}

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts: a fetch
 * (or body) that ignores its signal cannot outlive the attempt's time limit.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
