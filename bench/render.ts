// Rendering cost on the JavaScript-built fixture site (src/testing/fixtures/js-site/), served
// from 127.0.0.1, in Debian's chromium:
//   npm run bench:render -- [--rounds N] [--concurrency N]
// Prints the browser's launch time, then milliseconds per rendered page (median and p90 over
// rounds × pages, one page at a time and `concurrency` at once): what `ingest --render` adds
// to each page it fetches.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createChromiumRenderer } from '../src/sources/render/chromium-renderer.js';
import type { ResourceAnswer } from '../src/sources/render/page-renderer.js';
import { startStaticServer } from '../src/testing/static-server.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, concurrency: { type: 'string' } } });
const rounds = Number(values.rounds ?? 10);
const concurrency = Number(values.concurrency ?? 2);
const site = fileURLToPath(new URL('../src/testing/fixtures/js-site/', import.meta.url));
const server = await startStaticServer(site);
const pages = ['docs/', 'docs/guide.html'].map((path) => ({ url: `${server.url}${path}`, html: readFileSync(`${site}${path.endsWith('/') ? `${path}index.html` : path}`, 'utf8') }));
const fetchResource = async (url: string, abortSignal: AbortSignal): Promise<ResourceAnswer> => {
  const response = await fetch(url, { signal: abortSignal });
  return { kind: 'response', status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? '' }, body: Buffer.from(await response.arrayBuffer()) };
};
const renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency, timeoutMs: 20_000, maxBytes: 10 * 1024 * 1024 });

const timed = async (page: { url: string; html: string }): Promise<number> => {
  const started = performance.now();
  const rendered = await renderer.render(page.url, { html: page.html, fetchResource });
  if (!rendered.html.includes('<h2 id=')) throw new Error(`${page.url} was not built`);
  return performance.now() - started;
};
const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
const summary = (label: string, times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${label}: ${times.length} renders, median ${percentile(sorted, 0.5).toFixed(0)} ms, p90 ${percentile(sorted, 0.9).toFixed(0)} ms per page`);
};

try {
  const first = await timed(pages[0] as { url: string; html: string });
  console.log(`first page, browser launch included: ${first.toFixed(0)} ms`);
  const sequential: number[] = [];
  for (let round = 0; round < rounds; round += 1) for (const page of pages) sequential.push(await timed(page));
  summary('one at a time', sequential);
  const started = performance.now();
  const batch = Array.from({ length: rounds }, () => pages).flat();
  await Promise.all(batch.map(timed));
  console.log(`${concurrency} at once: ${batch.length} pages in ${(performance.now() - started).toFixed(0)} ms, ${((performance.now() - started) / batch.length).toFixed(0)} ms per page of wall time`);
} finally {
  await renderer.close();
  await server.close();
}
