import { plural } from '../../core/plural.js';
import type { EmbedProgress } from '../../engine/embed-pass.js';
import type { IngestProgress } from '../../engine/ingest.js';
import type { CliIo } from './cli-io.js';

/** Redraws at most this often: a fast crawl reports hundreds of pages a second. */
const REDRAW_EVERY_MS = 100;

/**
 * Progress of long work on stderr, one line redrawn in place: counts, rate, elapsed time, and a
 * percentage and ETA where the total is known (embedding). Only on a terminal: with --quiet,
 * --json, or stderr piped to a file or CI log, nothing is drawn, and the summary says it all.
 */
export function progressReporter(io: Pick<CliIo, 'stderr' | 'interactive'>, options: { quiet?: boolean; json?: boolean }, clock: () => number = Date.now) {
  if (options.quiet === true || options.json === true || !io.interactive) return undefined;
  const started = clock();
  let embedStarted: number | undefined;
  let lastDraw = -Infinity;
  let drawn = false;
  const draw = (text: string, final: boolean) => {
    const now = clock();
    if (!final && now - lastDraw < REDRAW_EVERY_MS) return;
    lastDraw = now;
    drawn = true;
    io.stderr(`\r\u001b[2K${text}`);
  };
  return {
    update(progress: IngestProgress) {
      draw(ingestLine(progress, clock() - started), false);
    },
    embedding(progress: EmbedProgress) {
      embedStarted ??= clock();
      draw(embedLine(progress, clock() - embedStarted), progress.done === progress.total);
    },
    end() {
      if (drawn) io.stderr('\r\u001b[2K');
    },
  };
}

/** `ingest: 12 pages stored · 15 fetched · 40 queued · 3.1 pages/s · 0:04 elapsed`: a crawl's total is not known, so no ETA. */
export function ingestLine(progress: IngestProgress, elapsedMs: number): string {
  const parts = [`ingest: ${plural(progress.pages, 'page')} stored`, `${progress.fetched} fetched`, `${progress.queued} queued`];
  if (progress.errors > 0) parts.push(plural(progress.errors, 'error'));
  parts.push(`${rate(progress.pages, elapsedMs)} pages/s`, `${duration(elapsedMs)} elapsed`);
  return parts.join(' · ');
}

/** `embed: 1200 of 5000 passages (24%) · 85.0 passages/s · 0:14 elapsed · ETA 0:45`. */
export function embedLine(progress: EmbedProgress, elapsedMs: number): string {
  const percent = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
  const parts = [`embed: ${progress.done} of ${plural(progress.total, 'passage')} (${percent}%)`, `${rate(progress.done, elapsedMs)} passages/s`, `${duration(elapsedMs)} elapsed`];
  if (progress.done > 0 && progress.done < progress.total) parts.push(`ETA ${duration(((progress.total - progress.done) * elapsedMs) / progress.done)}`);
  return parts.join(' · ');
}

function rate(count: number, elapsedMs: number): string {
  return (count / Math.max(elapsedMs / 1000, 0.001)).toFixed(1);
}

/** `0:04`, `12:30`, `1:02:03`. */
export function duration(milliseconds: number): string {
  const total = Math.round(milliseconds / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
