import { closeSync, openSync, writeSync } from 'node:fs';
import { CitedocsError } from '../../core/errors.js';
import type { Page } from '../../core/types.js';

/** `--export pages.jsonl`: one JSON object per page read, written as the ingest goes. */
export function openExport(path: string): { write: (page: Page) => void; close: () => void } {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'w');
  } catch (error) {
    throw new CitedocsError(`Could not write the export file ${path}: ${error instanceof Error ? error.message : String(error)}. Check the path.`, { cause: error });
  }
  return {
    write: (page) => {
      const { url, title, markdown, headings, fetchedAt, etag, lastModified } = page;
      writeSync(descriptor, `${JSON.stringify({ url, title, markdown, headings, fetchedAt, etag: etag ?? null, lastModified: lastModified ?? null })}\n`);
    },
    close: () => closeSync(descriptor),
  };
}
