import { describe, expect, it } from 'vitest';
import { duration, embedLine, ingestLine, progressReporter } from './progress.js';

describe('CLI progress', () => {
  it('shows a crawl’s counts, rate and elapsed time, and no ETA (its total is not known)', () => {
    expect(ingestLine({ pages: 12, fetched: 15, queued: 40, errors: 0 }, 4_000)).toBe('ingest: 12 pages stored · 15 fetched · 40 queued · 3.0 pages/s · 0:04 elapsed');
    expect(ingestLine({ pages: 1, fetched: 1, queued: 0, errors: 1 }, 2_000)).toBe('ingest: 1 page stored · 1 fetched · 0 queued · 1 error · 0.5 pages/s · 0:02 elapsed');
  });

  it('shows embedding as count of total, percentage, rate, elapsed time and ETA', () => {
    expect(embedLine({ done: 1200, total: 5000 }, 15_000)).toBe('embed: 1200 of 5000 passages (24%) · 80.0 passages/s · 0:15 elapsed · ETA 0:48');
    expect(embedLine({ done: 5000, total: 5000 }, 60_000)).toBe('embed: 5000 of 5000 passages (100%) · 83.3 passages/s · 1:00 elapsed');
  });

  it('writes durations as m:ss, and h:mm:ss past an hour', () => {
    expect(duration(0)).toBe('0:00');
    expect(duration(754_000)).toBe('12:34');
    expect(duration(3_723_000)).toBe('1:02:03');
  });

  it('draws nothing when stderr is not a terminal, with --quiet, or with --json', () => {
    const io = { stderr: () => undefined, interactive: false };
    expect(progressReporter(io, {})).toBeUndefined();
    expect(progressReporter({ ...io, interactive: true }, { quiet: true })).toBeUndefined();
    expect(progressReporter({ ...io, interactive: true }, { json: true })).toBeUndefined();
  });

  it('on a terminal, redraws one line in place at most every 100 ms, always draws the last embedding step, and clears the line at the end', () => {
    let now = 0;
    let written = '';
    const reporter = progressReporter({ stderr: (text) => (written += text), interactive: true }, {}, () => now);
    reporter?.update({ pages: 1, fetched: 1, queued: 5, errors: 0 });
    now = 50;
    reporter?.update({ pages: 2, fetched: 2, queued: 5, errors: 0 });
    now = 150;
    reporter?.update({ pages: 3, fetched: 3, queued: 5, errors: 0 });
    reporter?.embedding({ done: 10, total: 10 });
    reporter?.end();
    const draws = written.split('\r\u001b[2K').filter(Boolean);
    expect(draws.map((line) => line.split(' · ')[0])).toEqual(['ingest: 1 page stored', 'ingest: 3 pages stored', 'embed: 10 of 10 passages (100%)']);
    expect(written.endsWith('\r\u001b[2K')).toBe(true);
  });
});
