import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

  describe('on a fake clock', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('ends a sleep at once when its signal aborts, leaving no timer behind', async () => {
      const controller = new AbortController();
      let woke = false;
      const sleeping = abortableSleep(10_000, controller.signal).then(() => {
        woke = true;
      });
      await vi.advanceTimersByTimeAsync(9_000);
      expect(woke).toBe(false);
      controller.abort();
      await sleeping;
      expect(woke).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('times an attempt out, and restart() postpones the limit', () => {
      const timer = startAttemptTimer(60);
      vi.advanceTimersByTime(40);
      timer.restart();
      vi.advanceTimersByTime(40);
      expect(timer.timedOut).toBe(false);
      vi.advanceTimersByTime(20);
      expect(timer.timedOut).toBe(true);
      expect(timer.signal.aborted).toBe(true);
      expect((timer.signal.reason as DOMException).name).toBe('TimeoutError');
    });
  });
});
