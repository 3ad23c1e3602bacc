import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.css': 'text/css',
  '.js': 'text/javascript', '.png': 'image/png', '.gif': 'image/gif', '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8', '.json': 'application/json',
};

export interface StaticServer {
  /** Base URL, like http://127.0.0.1:PORT/ */
  url: string;
  /** Paths requested so far, in order: lets tests assert what the crawler fetched. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves a folder on 127.0.0.1 the way a plain web server does: `dir/` → `dir/index.html`,
 * `dir` → 301 to `dir/`, 404 for what is missing. `routes` override paths (redirects, errors).
 */
export async function startStaticServer(
  root: string,
  options: { port?: number; routes?: Record<string, { status: number; headers?: Record<string, string>; body?: string }> } = {},
): Promise<StaticServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    requests.push(path);
    const route = options.routes?.[path];
    if (route !== undefined) {
      response.writeHead(route.status, route.headers ?? {});
      response.end(route.body ?? '');
      return;
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(normalize(root + sep)) && file !== normalize(root)) {
      response.writeHead(403).end();
      return;
    }
    void serveFile(file, path, request, response);
  });
  // Idle keep-alive connections are closed by the client, never by this server: Node's 5 s idle
  // limit races a client that reuses the connection at that moment (its request meets a closed
  // socket: ECONNRESET; nodejs/node#20256). A crawl's CPU-bound steps stall the shared event loop
  // long enough to hit that window, which is how the PostgreSQL-docs test failed now and then.
  // close() still ends idle connections (Node >= 19).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

async function serveFile(file: string, path: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    let info = await stat(file);
    let target = file;
    if (info.isDirectory()) {
      if (!path.endsWith('/')) {
        response.writeHead(301, { location: `${path}/` }).end();
        return;
      }
      target = join(file, 'index.html');
      info = await stat(target);
    }
    // Validators as nginx sends them, and conditional GETs answered with 304 like it does.
    const etag = `"${info.mtimeMs.toString(16)}-${info.size.toString(16)}"`;
    const lastModified = info.mtime.toUTCString();
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    const unchanged = ifNoneMatch !== undefined ? ifNoneMatch === etag : ifModifiedSince !== undefined && Math.floor(info.mtimeMs / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
    if (unchanged) {
      response.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream',
      'content-length': String(info.size),
      'last-modified': lastModified,
      etag,
    });
    createReadStream(target).pipe(response);
  } catch {
    response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  }
}
