import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { UsageError } from '../../core/errors.js';
import { createGuardedFetch, forbiddenRange, type GuardedFetch, type LookupFunction, PrivateHostError } from '../web/host-guard.js';

export interface HostPolicyOptions {
  /** The start URL the user gave: it fixes which hosts the crawl may reach. */
  startUrl: string;
  /** Other hosts the start URL may redirect to: `docs.example.com` (any port) or `host:port`. */
  allowedHosts?: readonly string[];
  /**
   * The start host (and the allowed hosts) may be on a private, link-local or unique-local
   * network: a docs site on an intranet. Never extends to any other host.
   */
  allowPrivateHosts?: boolean;
}

/**
 * Which hosts a crawl may reach, fixed by the start URL the user gave, never by where a
 * site redirects:
 * - its own host, also over https and with or without `www.` (http → https, apex → www are
 *   followed); any other host only when the user allows it (`allowedHosts`);
 * - addresses: a host named by the user (start URL, allowed hosts) may be on a loopback
 *   address when its name says so (127.0.0.1, [::1], localhost: a docs server on this
 *   machine), and on any private, link-local or metadata address only with
 *   `allowPrivateHosts`. Every other host must resolve to public addresses only.
 */
export interface HostPolicy {
  /** Why the crawl may not reach this URL's host (with how to allow it), or undefined. */
  hostRefusal(url: string): string | undefined;
  /** Whether this host name may resolve to a non-public address. */
  mayBePrivate(hostname: string): boolean;
}

export function createHostPolicy(options: HostPolicyOptions): HostPolicy {
  const start = new URL(options.startUrl);
  const allowed = (options.allowedHosts ?? []).map(parseAllowedHost);
  const named = new Set([start.hostname, ...allowed.map((host) => host.hostname)]);
  const isAllowed = (url: URL) =>
    sameSite(url, start) || allowed.some((host) => host.hostname === url.hostname && (host.port === undefined || host.port === effectivePort(url)));
  return {
    hostRefusal(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return 'it is not a valid URL';
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `only http and https URLs are crawled, not ${parsed.protocol}`;
      if (isAllowed(parsed)) return undefined;
      return `${parsed.host} is another host than the start URL's (${start.host}); a crawl stays on the host it was started on (start at ${parsed.origin}/ instead, or allow the host with --allow-host ${parsed.host})`;
    },
    mayBePrivate(hostname) {
      const bare = hostname.replace(/^\[|\]$/g, '');
      if (!named.has(hostname) && !named.has(bare)) return false;
      return options.allowPrivateHosts === true || isLoopbackName(bare);
    },
  };
}

/** Same host but for the scheme (http → https) and a leading `www.`, on the same port. */
function sameSite(url: URL, start: URL): boolean {
  const bare = (hostname: string) => hostname.replace(/^www\./i, '');
  return bare(url.hostname) === bare(start.hostname) && url.port === start.port;
}

function effectivePort(url: URL): string {
  return url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
}

const HOST_ENTRY = /^(\[[0-9a-f:.]+\]|[^\s/:?#@[\]]+)(:\d{1,5})?$/i;

function parseAllowedHost(entry: string): { hostname: string; port?: string } {
  const parsed = HOST_ENTRY.test(entry) && URL.canParse(`http://${entry}`) ? new URL(`http://${entry}`) : undefined;
  if (parsed === undefined) throw new UsageError(`--allow-host ${entry} is not a host. Give a host name like docs.example.com, or host:port like 127.0.0.1:8080.`);
  // A port given as 80 reads back as '' (the default): keep it explicit.
  return /:\d+$/.test(entry) ? { hostname: parsed.hostname, port: parsed.port === '' ? '80' : parsed.port } : { hostname: parsed.hostname };
}

function isLoopbackName(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  return isIP(hostname) !== 0 && forbiddenRange(hostname) === 'loopback';
}

/**
 * The crawl's fetch: web mode's guarded fetch (the address is checked in the connection's own
 * DNS lookup, so the address checked is the one connected to), with the crawl's policy of
 * which host names may be private. A refused host fails with PrivateHostError before any
 * byte is sent.
 */
export function createCrawlFetch(policy: HostPolicy, options: { lookup?: LookupFunction } = {}): GuardedFetch {
  const resolve: LookupFunction = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname, lookupOptions, (error, address, family) => {
      if (error !== null || policy.mayBePrivate(hostname)) return callback(error, address, family);
      const addresses = typeof address === 'string' ? [address] : address.map((entry) => entry.address);
      for (const candidate of addresses) {
        const range = forbiddenRange(candidate);
        if (range !== undefined) return callback(Object.assign(crawlRefusal(hostname, candidate, range), { code: 'EPRIVATEHOST' }), address, family);
      }
      callback(null, address, family);
    });
  };
  // The guard's own check is replaced by `lookup` above (and the literal check below), which know the crawl's hosts.
  const guarded = createGuardedFetch({ allowPrivateHosts: true, lookup });
  return {
    fetch: async (input, init) => {
      const hostname = new URL(input).hostname.replace(/^\[|\]$/g, '');
      const range = isIP(hostname) === 0 ? undefined : forbiddenRange(hostname);
      if (range !== undefined && !policy.mayBePrivate(hostname)) throw crawlRefusal(hostname, hostname, range);
      return guarded.fetch(input, init);
    },
    close: () => guarded.close(),
  };
}

function crawlRefusal(hostname: string, address: string, range: string): PrivateHostError {
  const subject = hostname === address ? 'it' : `it resolves to ${address}, which`;
  return new PrivateHostError(
    `refused ${hostname}: ${subject} is a ${range} address. A crawl reaches a non-public address only on the host of its start URL: on this machine when the start URL names it (127.0.0.1, localhost), on a private network when you pass --allow-private-hosts (crawl.allowPrivateHosts)`,
  );
}
