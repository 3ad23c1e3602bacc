import type { EmbedProgress } from '../../engine/embed-pass.js';
import type { IngestProgress } from '../../engine/ingest.js';
import type { CliIo } from './main.js';

const LOG_EVERY_MS = 5_000;

/**
 * Ingest progress on stderr: a line redrawn in place on a terminal; otherwise (CI, pipes)
 * a plain log line every few seconds. Nothing with --quiet or --json.
 */
export function progressReporter(io: CliIo, options: { quiet?: boolean; json?: boolean }, clock: () => number = Date.now) {
  if (options.quiet === true || options.json === true) return undefined;
  const started = clock();
  let lastLog = started;
  let last: IngestProgress | undefined;
  let lastEmbedded = -1;
  let drawn = false;
  const line = (progress: IngestProgress) => {
    const seconds = Math.max((clock() - started) / 1000, 0.001);
    return `ingest: ${progress.pages} pages stored, ${progress.fetched} fetched, ${progress.queued} queued, ${progress.errors} errors, ${(progress.pages / seconds).toFixed(1)} pages/s`;
  };
  return {
    update(progress: IngestProgress) {
      last = progress;
      if (io.interactive) {
        io.stderr(`\r\u001b[2K${line(progress)}`);
      } else if (clock() - lastLog >= LOG_EVERY_MS) {
        lastLog = clock();
        io.stderr(`${line(progress)}\n`);
      }
    },
    embedding(progress: EmbedProgress) {
      const text = `embed: ${progress.done} of ${progress.total} passages`;
      drawn = true;
      if (io.interactive) io.stderr(`\r\u001b[2K${text}`);
      else if (progress.done !== lastEmbedded && (clock() - lastLog >= LOG_EVERY_MS || progress.done === progress.total)) {
        lastEmbedded = progress.done;
        lastLog = clock();
        io.stderr(`${text}\n`);
      }
    },
    end() {
      if (io.interactive && (last !== undefined || drawn)) io.stderr('\r\u001b[2K');
    },
  };
}
