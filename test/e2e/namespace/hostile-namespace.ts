/**
 * Runs inside a network namespace that hostile-namespace.test.ts creates (`unshare -rnm`),
 * where 169.254.169.254 (a fake cloud metadata service) and 10.0.0.7 (an intranet docs
 * server) exist on the namespace's own loopback device, and /etc/hosts maps
 * metadata.hostile.test → 169.254.169.254 and docs.intranet.test → 10.0.0.7. Nothing here
 * can reach any other network. Crawls with the CLI in process and prints one JSON object:
 * each scenario's exit code and output, and every request each server received.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { htmlPage } from '../../../src/testing/http-site.js';
import { hostileSiteHandler, METADATA_SECRET, metadataHandler, startLoggedServer } from '../../../src/testing/hostile-site.js';
import { runCliCaptured } from '../../../src/testing/run-cli.js';

const metadata = await startLoggedServer(metadataHandler(), { host: '169.254.169.254', port: 80 });
const intranet = await startLoggedServer(
  (request, response) => {
    if (request.url === '/docs/to-metadata.html') return void response.writeHead(302, { location: 'http://metadata.hostile.test/latest/meta-data/' }).end();
    if (request.url === '/docs/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('Intranet docs', ['page.html', 'to-metadata.html', 'http://169.254.169.254/latest/meta-data/']));
    if (request.url === '/docs/page.html') return void response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('Intranet page'));
    response.writeHead(404).end();
  },
  { host: '10.0.0.7', port: 80 },
);
const hostile = await startLoggedServer(hostileSiteHandler({ outside: intranet.base, metadata: metadata.base }));
const redirector = await startLoggedServer((request, response) => {
  const location = request.url === '/to-name/' ? 'http://metadata.hostile.test/latest/meta-data/' : 'http://169.254.169.254/latest/meta-data/';
  response.writeHead(301, { location }).end();
});

const dbFolder = mkdtempSync(join(tmpdir(), 'citedocs-netns-'));
let runs = 0;
const ingest = async (...args: string[]) => {
  runs += 1;
  const run = await runCliCaptured(['ingest', ...args, '--db', join(dbFolder, `index-${runs}.db`), '--json'], { cwd: dbFolder });
  const search = run.code === 0 ? await runCliCaptured(['search', METADATA_SECRET, '--json', '--db', join(dbFolder, `index-${runs}.db`)], { cwd: dbFolder }) : undefined;
  const secretPassages = search === undefined ? 0 : (JSON.parse(search.stdout) as { results: { text: string }[] }).results.filter((result) => result.text.includes(METADATA_SECRET)).length;
  return { ...run, requests: { metadata: metadata.requests.length, intranet: intranet.requests.length }, secretPassages };
};

const scenarios = {
  hostileSite: await ingest(`${hostile.base}/docs/`),
  startRedirectsToMetadata: await ingest(`${redirector.base}/docs/`),
  startRedirectsToAllowedNameOnMetadata: await ingest(`${redirector.base}/to-name/`, '--allow-host', 'metadata.hostile.test'),
  intranetWithoutFlag: await ingest('http://10.0.0.7/docs/'),
  intranetNameWithoutFlag: await ingest('http://docs.intranet.test/docs/'),
  intranetWithFlag: await ingest('http://docs.intranet.test/docs/', '--allow-private-hosts'),
};
process.stdout.write(`${JSON.stringify({ scenarios, metadataRequests: metadata.requests, intranetRequests: intranet.requests })}\n`);
await Promise.all([metadata, intranet, hostile, redirector].map((server) => server.close()));
