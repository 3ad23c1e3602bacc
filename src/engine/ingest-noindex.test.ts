import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine } from './engine.js';

const chapter = (title: string, text: string, head = '') => `<html><head><title>${title}</title>${head}</head><body><main><h1 id="top">${title}</h1><p>${text}</p></main></body></html>`;
const NOINDEX = '<meta name="robots" content="noindex">';

describe('ingest of pages that ask not to be indexed', () => {
  it('stores none of their text, says so once for the run, and removes such a page stored before it asked', async () => {
    const { docs, dbPath } = docsWorkspace({
      'ch1.html': chapter('Unwinding', 'A panic unwinds the stack and cleans up the data of each function it leaves.'),
      'ch2.html': chapter('Ownership', 'Each value has one owner, and the value is dropped when the owner goes out of scope.'),
      'print.html': chapter('Print', 'A panic unwinds the stack and cleans up the data of each function it leaves. Every chapter again.', NOINDEX),
    });
    const engine = createEngine({ dbPath });
    const report = await engine.ingest(docs, { baseUrl: 'https://book.example/' });
    expect(report).toMatchObject({ added: 2, noindex: { count: 1, examples: ['print.html'] } });
    expect(report.diagnostics).toEqual([expect.objectContaining({ code: 'crawl.noindex', message: expect.stringContaining('1 page asks robots not to index it (print.html)') })]);
    expect((await engine.search('panic unwinds the stack')).results.map((result) => result.url)).toEqual(['https://book.example/ch1#top']);

    writeFileSync(join(docs, 'ch1.html'), chapter('Unwinding', 'A panic unwinds the stack.', NOINDEX));
    expect(await engine.ingest(docs, { baseUrl: 'https://book.example/' })).toMatchObject({ removed: 1, noindex: { count: 2 } });
    expect((await engine.search('panic unwinds the stack')).results.map((result) => result.url)).not.toContain('https://book.example/ch1#top');
    await engine.close();
  });
});
