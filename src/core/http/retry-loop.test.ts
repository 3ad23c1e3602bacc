import { describe, expect, it } from 'vitest';
import { type AttemptResult, retryLoop, type RetryLoopOptions } from './retry-loop.js';

/** Attempts that fail with their index (and the Retry-After given for it) until `succeedAt`. */
function scripted(succeedAt: number, retryAfterMs: (index: number) => number | undefined = () => undefined) {
  const waits: number[] = [];
  const attempts: number[] = [];
  const attempt = (index: number): Promise<AttemptResult<string, number>> => {
    attempts.push(index);
    if (index === succeedAt) return Promise.resolve({ kind: 'done', value: `done at ${index}` });
    const after = retryAfterMs(index);
    return Promise.resolve({ kind: 'retry', failure: index, ...(after === undefined ? {} : { retryAfterMs: after }) });
  };
  const options = (overrides: Partial<RetryLoopOptions> = {}): RetryLoopOptions => ({
    retries: 3,
    baseDelayMs: 100,
    maxWaitMs: 10_000,
    longWait: 'give-up',
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...overrides,
  });
  return { attempt, options, waits, attempts };
}

describe('retryLoop', () => {
  it('waits base · 2^retry between attempts and returns the first success', async () => {
    const run = scripted(3);
    await expect(retryLoop(run.attempt, run.options())).resolves.toEqual({ kind: 'done', value: 'done at 3' });
    expect(run.waits).toEqual([100, 200, 400]);
  });

  it('gives up after `retries` retries with the last failure', async () => {
    const run = scripted(99);
    await expect(retryLoop(run.attempt, run.options({ retries: 2 }))).resolves.toEqual({ kind: 'exhausted', failure: 2, attempts: 3 });
    expect(run.attempts).toEqual([0, 1, 2]);
  });

  it('waits what the server’s Retry-After says instead of the backoff', async () => {
    const run = scripted(1, () => 2_500);
    await retryLoop(run.attempt, run.options());
    expect(run.waits).toEqual([2_500]);
  });

  it('gives up on a Retry-After over the longest wait, or caps it, as the caller chose', async () => {
    const givingUp = scripted(1, () => 60_000);
    await expect(retryLoop(givingUp.attempt, givingUp.options())).resolves.toEqual({ kind: 'wait-too-long', failure: 0, attempts: 1, waitMs: 60_000 });
    expect(givingUp.waits).toEqual([]);
    const capping = scripted(1, () => 60_000);
    await expect(retryLoop(capping.attempt, capping.options({ longWait: 'cap' }))).resolves.toEqual({ kind: 'done', value: 'done at 1' });
    expect(capping.waits).toEqual([10_000]);
  });

  it('stops as aborted when the signal aborts during a wait, without another attempt', async () => {
    const controller = new AbortController();
    const run = scripted(99);
    const outcome = await retryLoop(
      run.attempt,
      run.options({
        signal: controller.signal,
        sleep: () => {
          controller.abort();
          return Promise.resolve();
        },
      }),
    );
    expect(outcome).toEqual({ kind: 'aborted' });
    expect(run.attempts).toEqual([0]);
  });
});
