// Web search mode latency, offline: npm run bench:web [-- --runs 10 --timeout 1000]
// A server on 127.0.0.1 plays DuckDuckGo with a real captured results page whose ten links lead
// to the local sites of the flatMap scenario (official docs, a blog, two mirrors, a big guide, a
// site that never answers, a 404, a PDF, robots.txt's refusal). Prints p50/p95 of a first run
// (empty cache: search, fetch, extract, score, select) and of a repeated run (from the cache).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/engine/engine.js';
import { capturedResultsPage, capturedTargets, rewriteTargets, startFakeWeb } from '../src/testing/fake-web.js';
import { FLATMAP_PAGES, flatmapSites } from '../src/testing/flatmap-sites.js';

const { values } = parseArgs({ options: { runs: { type: 'string' }, timeout: { type: 'string' } } });
const runs = Number(values.runs ?? 10);
const timeoutMs = Number(values.timeout ?? 1000);
const percentile = (samples: number[], share: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(share * samples.length))] ?? 0;
const report = (label: string, samples: number[]) => console.log(`${label.padEnd(52)} p50 ${percentile(samples, 0.5).toFixed(1).padStart(8)} ms   p95 ${percentile(samples, 0.95).toFixed(1).padStart(8)} ms`);

const captured = capturedResultsPage();
let port = 0;
const web = await startFakeWeb(
  () => ({ status: 200, body: rewriteTargets(captured, new Map(capturedTargets(captured).map((target, index) => [target, withPort(Object.values(FLATMAP_PAGES)[index] as string)]))) }),
  flatmapSites(),
);
port = web.sitePort;
function withPort(url: string): string {
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.href;
}

const cold: number[] = [];
const warm: number[] = [];
let last: Awaited<ReturnType<ReturnType<typeof createEngine>['web']>> | undefined;
try {
  for (let run = 0; run < runs; run += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'citedocs-bench-web-'));
    const engine = createEngine({ dbPath: join(dir, 'index.db'), web: { timeoutMs, cache: { path: join(dir, 'cache.db') } } }, { lookup: web.lookup });
    let started = performance.now();
    last = await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl });
    cold.push(performance.now() - started);
    started = performance.now();
    await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl });
    warm.push(performance.now() - started);
    await engine.close();
  }
} finally {
  await web.close();
}
console.log(`${runs} runs; 10 search results, one site never answers (timeout ${timeoutMs} ms); selected ${last?.results.length ?? 0} pages, ${last?.totalTokens ?? 0} tokens, ${last?.requests.pages ?? 0} page requests`);
report('first run (search + fetch + score + select)', cold);
report('same query again (cache: 0 requests)', warm);
