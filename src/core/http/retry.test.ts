import { describe, expect, it } from 'vitest';
import { abortableSleep, backoffMs, parseRetryAfter, startAttemptTimer } from './retry.js';

describe('retry helpers', () => {
  it('doubles the backoff per attempt, up to 30 s', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffMs(500, attempt))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(500, 20)).toBe(30_000);
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('ends a sleep at once when its signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await abortableSleep(10_000, controller.signal);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('times an attempt out, and restart() postpones the limit', async () => {
    const timer = startAttemptTimer(60);
    await abortableSleep(40);
    timer.restart();
    await abortableSleep(40);
    expect(timer.timedOut).toBe(false);
    await abortableSleep(60);
    expect(timer.timedOut).toBe(true);
    expect(timer.signal.aborted).toBe(true);
    expect((timer.signal.reason as DOMException).name).toBe('TimeoutError');
  });
});
