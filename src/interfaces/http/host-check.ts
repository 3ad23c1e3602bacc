import { isIP } from 'node:net';
import { UsageError } from '../../core/errors.js';

/**
 * The guard against DNS rebinding and cross-site calls. A page on another site can make the
 * browser send requests to a server bound to 127.0.0.1 in two ways: under a name of its own
 * that it re-points at 127.0.0.1 (then the `Host` header carries that name), or directly (then
 * the `Origin` header carries the other site). Both are refused unless the operator allowed them.
 */
export interface HostCheckOptions {
  /**
   * Names (or name:port) this server may be reached under besides localhost and IP addresses,
   * e.g. the name a reverse proxy forwards. `*` allows any name (the guard is off).
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (scheme://host[:port]) of other sites whose pages may call this server. `*` allows
   * any origin; `null` allows the opaque origin of sandboxed frames and local files.
   */
  allowedOrigins?: readonly string[];
}

/** What the guard reads from a request: its raw `Host` and `Origin` headers. */
export interface RequestHeaders {
  host?: string | undefined;
  origin?: string | undefined;
}

export type HostVerdict = { ok: true } | { ok: false; code: 'forbidden_host' | 'forbidden_origin'; message: string };

/**
 * Host: allowed when it names localhost, an IP address (a rebinding attack needs a name of its
 * own: a browser sends an IP address only to a page served from that address), or an allowed
 * name. The port is not compared: a rebinding changes the name, never the port, and ssh tunnels,
 * containers and proxies legitimately change the port. A request without `Host` (HTTP/1.0, not
 * a browser) passes.
 *
 * Origin: absent (not a browser, or a same-origin navigation) passes; so does the page's own
 * origin (its host:port equals the request's `Host`: the chat page's calls), and an allowed one.
 */
export function createHostCheck(options: HostCheckOptions = {}): (headers: RequestHeaders) => HostVerdict {
  const hosts = (options.allowedHosts ?? []).map((host) => host.trim().toLowerCase()).filter((host) => host !== '');
  const anyHost = hosts.includes('*');
  const names = new Set(
    hosts.flatMap((host) => {
      if (host === '*') return [];
      const parts = hostParts(host);
      if (parts === undefined) throw new UsageError(`Allowed host "${host}" is not a host name: give a name or name:port, like docs.example.com or docs.example.com:8443.`);
      return [host.includes(':') && !host.endsWith(']') ? parts.host : parts.hostname];
    }),
  );
  const origins = new Set(
    (options.allowedOrigins ?? []).flatMap((given) => {
      const origin = normaliseOrigin(given.trim());
      if (origin === '') return [];
      if (origin !== '*' && origin !== 'null' && !/^https?:\/\/[^/]+$/.test(origin)) throw new UsageError(`Allowed origin "${given}" is not an origin: give scheme://host[:port], like https://docs.example.com.`);
      return [origin];
    }),
  );
  const anyOrigin = origins.has('*');

  const hostAllowed = (host: string): boolean => {
    const parts = hostParts(host);
    if (parts === undefined) return false;
    if (anyHost || parts.hostname === 'localhost' || isIP(parts.hostname.replace(/^\[|\]$/g, '')) !== 0) return true;
    return names.has(parts.hostname) || names.has(parts.host);
  };

  return (headers) => {
    const host = headers.host?.trim().toLowerCase();
    if (host !== undefined && host !== '' && !hostAllowed(host)) {
      const name = hostParts(host)?.hostname ?? host;
      return {
        ok: false,
        code: 'forbidden_host',
        message: `Host "${headers.host ?? ''}" is not allowed: this server answers to localhost, IP addresses and the names given with --allowed-hosts (a guard against DNS rebinding). To serve it under this name, start it with --allowed-hosts ${name}.`,
      };
    }
    const origin = headers.origin?.trim();
    if (origin === undefined || origin === '' || anyOrigin) return { ok: true };
    const normalised = normaliseOrigin(origin);
    if (origins.has(normalised)) return { ok: true };
    const sameOrigin = host !== undefined && /^https?:\/\//.test(normalised) && normalised.slice(normalised.indexOf('//') + 2) === defaultPortless(host, normalised);
    if (sameOrigin) return { ok: true };
    return {
      ok: false,
      code: 'forbidden_origin',
      message: `Origin ${origin} is not allowed: only pages served by this server may call it (a guard against cross-site requests). To let pages of ${origin} call it, start it with --allowed-origins ${origin} (and --cors-origin ${origin} so they can read the answers).`,
    };
  };
}

/** The name and name:port of a `Host` value; undefined when it is not a host. */
function hostParts(host: string): { hostname: string; host: string } | undefined {
  if (host === '*' || /[\s/?#@\\]/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return { hostname: url.hostname, host: url.host };
  } catch {
    return undefined;
  }
}

/** scheme://host[:port] in lower case without a default port or trailing slash; `null` and `*` as they are. */
function normaliseOrigin(origin: string): string {
  const lower = origin.toLowerCase();
  if (lower === 'null' || lower === '*') return lower;
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? lower : url.origin;
  } catch {
    return lower.replace(/\/+$/, '');
  }
}

/** The request's `Host` as it appears in an origin of this scheme (a default port is dropped there). */
function defaultPortless(host: string, origin: string): string {
  const parts = hostParts(host);
  if (parts === undefined) return host;
  const secure = origin.startsWith('https:');
  return parts.host.endsWith(secure ? ':443' : ':80') ? parts.hostname : parts.host;
}
