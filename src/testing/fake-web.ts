import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LookupFunction } from '../sources/web/host-guard.js';

/** A real DuckDuckGo HTML results page, captured (see src/sources/web/fixtures/README.md). */
export function capturedResultsPage(name = 'ddg_results_graphology_typescript.html'): string {
  return readFileSync(new URL(`../sources/web/fixtures/${name}`, import.meta.url), 'utf8');
}

/** The result URLs of a captured page, in rank order (decoded from its `uddg=` redirect links). */
export function capturedTargets(html: string): string[] {
  const targets: string[] = [];
  for (const match of html.matchAll(/class="result__a" href="[^"]*?uddg=([^&"]+)/g)) targets.push(decodeURIComponent(match[1] as string));
  return targets;
}

/** The captured page with each result's target replaced (inside DuckDuckGo's redirect links, as the real page has them). */
export function rewriteTargets(html: string, replacements: ReadonlyMap<string, string>): string {
  return html.replace(/uddg=([^&"]+)/g, (whole, encoded: string) => {
    const replacement = replacements.get(decodeURIComponent(encoded));
    return replacement === undefined ? whole : `uddg=${encodeURIComponent(replacement)}`;
  });
}

export type HostRoutes = Record<string, Record<string, { status?: number; type?: string; body?: string; headers?: Record<string, string> } | 'hang'>>;

export interface FakeWeb {
  /** The search endpoint: http://127.0.0.1:PORT/html/ */
  searchUrl: string;
  /** The port the sites answer on, whatever their host name. */
  sitePort: number;
  /** Resolves every host name to 127.0.0.1 (what the SSRF guard sees, too). */
  lookup: LookupFunction;
  /** Requests the search server and the sites received: `search` and `host/path`. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A local stand-in for the web on 127.0.0.1: a server answering like DuckDuckGo's HTML endpoint
 * with `resultsPage`, and one server for every site, routed by the Host header (or, for
 * http://127.0.0.1:PORT/<host>/<path>, by the first path segment). A route may
 * `hang` (accept the request, never answer) to play a site that times out.
 */
export async function startFakeWeb(resultsPage: string | ((request: IncomingMessage) => { status: number; body: string }), sites: HostRoutes): Promise<FakeWeb> {
  const requests: string[] = [];
  const search = await listen((request, response) => {
    requests.push('search');
    const answer = typeof resultsPage === 'string' ? { status: 200, body: resultsPage } : resultsPage(request);
    request.resume();
    response.writeHead(answer.status, { 'content-type': 'text/html; charset=UTF-8' }).end(answer.body);
  });
  const site = await listen((request, response) => {
    let host = (request.headers.host ?? '').replace(/:\d+$/, '');
    let path = request.url ?? '/';
    // Addressed as 127.0.0.1 itself, the first path segment names the site: /blog.example.test/posts/x.
    if (host === '127.0.0.1') {
      const [, site = '', ...rest] = path.split('/');
      host = site;
      path = `/${rest.join('/')}`;
    }
    requests.push(`${host}${path}`);
    const route = sites[host]?.[path];
    if (route === 'hang') return;
    if (route === undefined) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    response.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers }).end(route.body ?? '');
  });
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };
  return {
    searchUrl: `http://127.0.0.1:${search.port}/html/`,
    sitePort: site.port,
    lookup,
    requests,
    close: async () => {
      await Promise.all([search.close(), site.close()]);
    },
  };
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
