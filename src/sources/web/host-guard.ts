import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { CitedocsError } from '../../core/errors.js';
import type { FetchLike } from '../../core/http/send.js';

/** `dns.lookup`'s shape: tests resolve made-up host names to 127.0.0.1 with their own. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** A URL from a search result that leads to a private, loopback, link-local or metadata address. */
export class PrivateHostError extends CitedocsError {
  override readonly name = 'PrivateHostError';
}

/**
 * Why an address may not be fetched for an untrusted URL (`loopback`, `private`, `linkLocal` —
 * which holds the cloud metadata address 169.254.169.254 — `uniqueLocal`, …), or undefined for
 * a public unicast address. IPv6 addresses that carry an IPv4 address are judged as that address.
 */
export function forbiddenRange(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return 'unparsable';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:a.b.c.d (mapped) and the deprecated ::a.b.c.d (compatible) carry an IPv4 address.
    const parts = v6.parts;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (parts.slice(0, 6).every((part) => part === 0) && ((parts[6] ?? 0) !== 0 || (parts[7] ?? 0) > 1)) parsed = ipaddr.fromByteArray(v6.toByteArray().slice(12));
  }
  const range = parsed.range();
  return range === 'unicast' ? undefined : range;
}

/** Every refusal says this: how a failure caused by the guard is told from others. */
export const PRIVATE_HOST_PHRASE = 'may only lead to public hosts';

function refusal(hostname: string, address: string, range: string): PrivateHostError {
  const subject = hostname === address ? 'it' : `it resolves to ${address}, which`;
  return new PrivateHostError(
    `refused ${hostname}: ${subject} is a ${range} address; URLs from web search results ${PRIVATE_HOST_PHRASE} (set web.allowPrivateHosts, or pass --allow-private-hosts, to fetch private ones)`,
  );
}

/** Throws PrivateHostError when the URL's host is an IP literal in a forbidden range. */
export function assertPublicLiteral(url: string): void {
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname) === 0) return;
  const range = forbiddenRange(hostname);
  if (range !== undefined) throw refusal(hostname, hostname, range);
}

export interface GuardedFetch {
  fetch: FetchLike;
  close(): Promise<void>;
}

/**
 * A fetch for untrusted URLs. Unless `allowPrivateHosts`, it refuses a host that is, or resolves
 * to, a non-public address. The check sits in the connection's own DNS lookup, so the address
 * checked is the address connected to (no DNS-rebinding window), and every redirect hop, which
 * the caller follows itself, is checked again.
 */
export function createGuardedFetch(options: { allowPrivateHosts: boolean; lookup?: LookupFunction }): GuardedFetch {
  const resolve: LookupFunction = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname, lookupOptions, (error, address, family) => {
      if (error !== null || options.allowPrivateHosts) {
        callback(error, address, family);
        return;
      }
      const addresses = typeof address === 'string' ? [address] : address.map((entry) => entry.address);
      for (const candidate of addresses) {
        const range = forbiddenRange(candidate);
        if (range !== undefined) {
          callback(Object.assign(refusal(hostname, candidate, range), { code: 'EPRIVATEHOST' }), address, family);
          return;
        }
      }
      callback(null, address, family);
    });
  };
  const agent = new Agent({ connect: { lookup: guardedLookup as never } });
  return {
    fetch: async (input, init) => {
      // Every hop: a redirect to data:, file: or any other scheme is not followed.
      const protocol = new URL(input).protocol;
      if (protocol !== 'http:' && protocol !== 'https:') throw new CitedocsError(`refused ${input.slice(0, 80)}: only http and https URLs are fetched`);
      if (!options.allowPrivateHosts) assertPublicLiteral(input);
      try {
        return (await undiciFetch(input, { ...(init as object), dispatcher: agent } as never)) as unknown as Response;
      } catch (error) {
        const cause = error instanceof Error ? error.cause : undefined;
        if (cause instanceof PrivateHostError) throw cause;
        throw error;
      }
    },
    close: () => agent.close(),
  };
}
