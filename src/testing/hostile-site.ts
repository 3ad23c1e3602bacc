import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { htmlPage } from './http-site.js';

/** A server that logs every request it receives: tests assert on the log that nothing reached it. */
export interface LoggedServer {
  /** Origin, like http://127.0.0.1:PORT (no trailing slash). */
  base: string;
  requests: { host: string; path: string }[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse, base: string) => void;

export async function startLoggedServer(handler: Handler, options: { host?: string; port?: number } = {}): Promise<LoggedServer> {
  const requests: LoggedServer['requests'] = [];
  let base = '';
  const server = createServer((request, response) => {
    requests.push({ host: request.headers.host ?? '', path: request.url ?? '/' });
    handler(request, response, base);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://${host.includes(':') ? `[${host}]` : host}${port === 80 ? '' : `:${port}`}`;
  return { base, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What a fake cloud metadata service hands out: it must never reach the index. */
export const METADATA_SECRET = 'AKIAHOSTILEFIXTURE00';

/** A fake cloud metadata service (169.254.169.254 inside a network namespace, or any address). */
export function metadataHandler(): Handler {
  return (_request, response) =>
    void response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('Instance credentials', [], `<p>AccessKeyId ${METADATA_SECRET} SecretAccessKey hostilefixturesecret</p>`));
}

/** Another host's site: pages a crawl must never fetch unless the user allows the host. */
export function outsideHandler(): Handler {
  return (request, response) => {
    if (request.url === '/sitemap.xml') return void response.writeHead(200, { 'content-type': 'application/xml' }).end('<urlset><url><loc>http://127.0.0.1/docs/outsidezebra.html</loc></url></urlset>');
    response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('Outside', [], '<p>outsiderzebra content from another host</p>'));
  };
}

/** The path of the link that grows its URL on every page (`trap/trap/trap/…`). */
const TRAP = '/docs/trap/';
export const LONG_LINK = `${'l'.repeat(3000)}.html`;

/**
 * A documentation site doing everything issue 25 saw real and hostile sites do. Its pages
 * under /docs/: a link trap that grows its path, a link longer than any real URL, redirects
 * to another host and to a metadata service, random bytes served as text/html, a Latin-1
 * page without a declared charset, a 200 KB single word; robots.txt with a relative and an
 * invalid `Sitemap:` line; a sitemap and llms.txt that redirect to another host. The good
 * pages (home, ok, listed, latin, word, trap levels) are what a crawl must still store.
 */
export function hostileSiteHandler(options: { outside: string; metadata: string }): Handler {
  let seed = 11;
  const random = Buffer.from(Array.from({ length: 8192 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256));
  const html = (response: ServerResponse, body: string | Buffer) => void response.writeHead(200, { 'content-type': 'text/html' }).end(body);
  const redirect = (response: ServerResponse, location: string) => void response.writeHead(302, { location }).end();
  return (request, response, base) => {
    const path = request.url ?? '/';
    if (path.startsWith(TRAP)) return html(response, htmlPage(`Trap level ${path.split('/').length - 3}`, ['trap/']));
    switch (path) {
      case '/robots.txt':
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /docs/private/\nSitemap: /sitemap.xml\nSitemap: http://[not-a-host\n');
      case '/sitemap.xml':
        return void response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(`<urlset><url><loc>${base}/docs/listed.html</loc></url><url><loc>${options.outside}/docs/stolen.html</loc></url></urlset>`);
      case '/docs/sitemap.xml':
        return redirect(response, `${options.outside}/sitemap.xml`);
      case '/llms.txt':
        return redirect(response, `${options.outside}/llms.txt`);
      case '/docs/':
        return html(response, htmlPage('Hostile home', ['trap/', 'out.html', 'meta.html', 'binary.html', 'latin.html', 'word.html', LONG_LINK, 'ok.html', 'private/secret.html']));
      case '/docs/out.html':
        return redirect(response, `${options.outside}/docs/stolen.html`);
      case '/docs/meta.html':
        return redirect(response, `${options.metadata}/latest/meta-data/iam/security-credentials/admin`);
      case '/docs/binary.html':
        return html(response, random);
      case '/docs/latin.html':
        return html(response, iconv.encode(htmlPage('Crème brûlée recipe', [], "<p>Les élèves préparent la crème brûlée à l'école.</p>"), 'latin1'));
      case '/docs/word.html':
        return html(response, htmlPage('Long word', [], `<p>hugewordpage ${'a'.repeat(200_000)}</p>`));
      case '/docs/ok.html':
      case '/docs/listed.html':
        return html(response, htmlPage(path === '/docs/ok.html' ? 'Plain page' : 'Listed page'));
      default:
        return void response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    }
  };
}
