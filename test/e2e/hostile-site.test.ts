/**
 * The hostile-site suite (issue 25): a crawl of a site that does what hostile and broken sites
 * do must request nothing outside its start host, store no metadata content, stop traps at the
 * URL limits, and end every bad case with a warning while the rest of the crawl completes.
 * Every server logs each request it receives; the assertions are on those logs. This part runs
 * on 127.0.0.1 (other hosts are other ports); hostile-namespace.test.ts repeats the address
 * cases on real private and metadata addresses inside a network namespace.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileSiteHandler, LONG_LINK, type LoggedServer, METADATA_SECRET, metadataHandler, outsideHandler, startLoggedServer } from '../../src/testing/hostile-site.js';
import { type CliRun, runCliCaptured } from '../../src/testing/run-cli.js';

interface IngestJson {
  pages: number;
  errors: { input: string; message: string }[];
}

let site: LoggedServer;
let outside: LoggedServer;
let metadata: LoggedServer;
let dbPath: string;
let ingest: CliRun;
let report: IngestJson;
const cli = (...args: string[]) => runCliCaptured([...args, '--db', dbPath], { cwd: tmpdir() });

beforeAll(async () => {
  outside = await startLoggedServer(outsideHandler());
  metadata = await startLoggedServer(metadataHandler());
  site = await startLoggedServer(hostileSiteHandler({ outside: outside.base, metadata: metadata.base }));
  dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-hostile-')), 'index.db');
  ingest = await cli('ingest', `${site.base}/docs/`, '--json');
  report = JSON.parse(ingest.stdout) as IngestJson;
}, 60_000);
afterAll(async () => Promise.all([site, outside, metadata].map((server) => server.close())));

const messages = () => report.errors.map((error) => error.message);

describe('a crawl of a hostile site', () => {
  it('completes with exit 0 and stores every good page', async () => {
    expect(ingest.code).toBe(0);
    const stored = JSON.parse((await cli('stats', '--json')).stdout) as { pages: number };
    // home, ok, listed (from the relative sitemap), latin, the 200 KB word, trap levels 1–3
    expect(stored.pages).toBe(8);
    expect(report.pages).toBe(8);
  });

  it('sends 0 requests to any host but the start host', () => {
    expect(outside.requests).toEqual([]);
    expect(metadata.requests).toEqual([]);
    expect(new Set(site.requests.map((request) => request.host))).toEqual(new Set([new URL(site.base).host]));
  });

  it('never stores what the metadata service or another host would have served', async () => {
    for (const word of [METADATA_SECRET, 'outsiderzebra']) {
      const search = JSON.parse((await cli('search', word, '--json')).stdout) as { results: { text: string }[] };
      expect(search.results.filter((result) => result.text.includes(word))).toEqual([]);
    }
  });

  it('reports each refused redirect, naming where it led', () => {
    expect(messages()).toContain(`GET ${site.base}/docs/out.html redirects to ${outside.base}/docs/stolen.html, which was not followed: ${new URL(outside.base).host} is another host than the start URL's (${new URL(site.base).host}); a crawl stays on the host it was started on (start at ${outside.base}/ instead, or allow the host with --allow-host ${new URL(outside.base).host})`);
    expect(messages().some((message) => message.startsWith(`GET ${site.base}/docs/meta.html redirects to ${metadata.base}/latest/meta-data/`))).toBe(true);
    expect(messages().some((message) => message.startsWith(`GET ${site.base}/docs/sitemap.xml redirects to ${outside.base}/sitemap.xml, which was not followed`))).toBe(true);
  });

  it('stops the trap at the repeated-segment limit and never requests the over-long link, warning once for each', () => {
    const paths = site.requests.map((request) => request.path);
    expect(paths.filter((path) => path.startsWith('/docs/trap/')).sort()).toEqual(['/docs/trap/', '/docs/trap/trap/', '/docs/trap/trap/trap/']);
    expect(paths.some((path) => path.includes(LONG_LINK))).toBe(false);
    expect(messages().filter((message) => message.includes('crawl.maxRepeatedSegments'))).toHaveLength(1);
    expect(messages().filter((message) => message.includes('crawl.maxUrlLength'))).toHaveLength(1);
  });

  it('skips the binary page and the invalid Sitemap line with a warning each, reads the undeclared Latin-1 page and the 200 KB word', async () => {
    expect(messages()).toContain(`GET ${site.base}/docs/binary.html is served as text/html but it holds NUL bytes, so it is binary data, not text; skipped`);
    expect(messages()).toContain(`${site.base}/robots.txt names a sitemap "http://[not-a-host" that is not an http(s) URL; skipped`);
    const latin = JSON.parse((await cli('search', 'crème brûlée', '--json')).stdout) as { results: { url: string; title: string }[] };
    expect(latin.results[0]).toMatchObject({ url: `${site.base}/docs/latin.html`, title: 'Crème brûlée recipe' });
    // The page is stored; its 200 KB "word" is data, not something anyone searches, so it is cut to a bounded length.
    const word = JSON.parse((await cli('inspect', `${site.base}/docs/word.html`, '--json')).stdout) as { chunks: { text: string }[] };
    const text = word.chunks.map((chunk) => chunk.text).join('');
    expect(text).toContain(`hugewordpage ${'a'.repeat(2_000)}…`);
    expect(text).not.toContain('a'.repeat(2_001));
  });

  it('never requests what robots.txt disallows', () => {
    expect(site.requests.map((request) => request.path)).not.toContain('/docs/private/secret.html');
  });
});
