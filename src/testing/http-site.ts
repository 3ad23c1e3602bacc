import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route =
  | string
  | { status: number; type?: string; body?: string | Buffer; location?: string; headers?: Record<string, string> }
  | ((request: IncomingMessage, response: ServerResponse) => void);

export interface SiteServer {
  /** Origin, like http://127.0.0.1:PORT (no trailing slash). */
  base: string;
  /** Paths requested, in order, with the conditional headers each carried. */
  requests: { path: string; ifNoneMatch?: string; ifModifiedSince?: string; userAgent?: string; at: number }[];
  close(): Promise<void>;
}

/**
 * A scripted site on 127.0.0.1 for crawler tests: path → HTML string (200 text/html), a
 * response description, or a handler. Anything else is a 404.
 */
export async function serveSite(routes: Record<string, Route>): Promise<SiteServer> {
  const requests: SiteServer['requests'] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({
      path,
      at: Date.now(),
      ...(request.headers['if-none-match'] ? { ifNoneMatch: request.headers['if-none-match'] } : {}),
      ...(request.headers['if-modified-since'] ? { ifModifiedSince: request.headers['if-modified-since'] } : {}),
      ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
    });
    const route = routes[path];
    if (route === undefined) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    if (typeof route === 'function') return route(request, response);
    if (typeof route === 'string') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
    response
      .writeHead(route.status, { ...(route.type ? { 'content-type': route.type } : {}), ...(route.location ? { location: route.location } : {}), ...route.headers })
      .end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A small documentation page with a title, a paragraph and links. */
export function htmlPage(title: string, links: string[] = [], extra = ''): string {
  return `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>About ${title}.</p>${extra}${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</main></body></html>`;
}
