import { afterEach, describe, expect, it } from 'vitest';
import { htmlPage, serveSite, type SiteServer } from '../../testing/http-site.js';
import type { FetchLike } from '../../core/http/send.js';
import { fetchPage } from '../crawl/fetch-page.js';
import { assertPublicLiteral, createGuardedFetch, forbiddenRange, type GuardedFetch, type LookupFunction, PRIVATE_HOST_PHRASE, PrivateHostError } from './host-guard.js';

const servers: SiteServer[] = [];
const guards: GuardedFetch[] = [];
afterEach(async () => {
  await Promise.all([...guards.splice(0).map((guard) => guard.close()), ...servers.splice(0).map((server) => server.close())]);
});

async function site(): Promise<SiteServer> {
  const server = await serveSite({ '/': htmlPage('Local'), '/secret': htmlPage('Secret') });
  servers.push(server);
  return server;
}

function guarded(options: Parameters<typeof createGuardedFetch>[0]): GuardedFetch {
  const guard = createGuardedFetch(options);
  guards.push(guard);
  return guard;
}

/** Resolves the names in `table` (and nothing else: ENOTFOUND), answering `all` lookups with every address. */
function lookupFrom(table: Record<string, string[]>, asked: string[] = []): LookupFunction {
  return (hostname, options, callback) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
    const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all === true) callback(null, entries);
    else callback(null, entries[0]?.address ?? '', entries[0]?.family);
  };
}

async function refusal(promise: Promise<unknown>): Promise<PrivateHostError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PrivateHostError);
  return error as PrivateHostError;
}

const get = (guard: GuardedFetch, url: string): Promise<Response> => guard.fetch(url, { signal: AbortSignal.timeout(5000) });

describe('forbiddenRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::7f00:1', 'loopback'],
    ['::a00:1', 'private'],
    ['not an address', 'unparsable'],
  ])('refuses %s as %s', (address, range) => {
    expect(forbiddenRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '2606:4700::1111', '172.32.0.1', '::ffff:93.184.215.14'])('lets the public address %s through', (address) => {
    expect(forbiddenRange(address)).toBeUndefined();
  });
});

describe('assertPublicLiteral', () => {
  it.each(['http://127.0.0.1:8080/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/', 'http://2130706433/', 'http://[::ffff:7f00:1]/'])('refuses the private IP literal in %s', (url) => {
    expect(() => assertPublicLiteral(url)).toThrow(PrivateHostError);
  });

  it('names the address, its range and the way to allow it', () => {
    expect(() => assertPublicLiteral('http://10.0.0.7/')).toThrow(/^refused 10\.0\.0\.7: it is a private address; .*may only lead to public hosts.*--allow-private-hosts/);
  });

  it('leaves host names (checked at connection time) and public literals alone', () => {
    expect(() => assertPublicLiteral('http://localhost/')).not.toThrow();
    expect(() => assertPublicLiteral('https://93.184.215.14/')).not.toThrow();
    expect(() => assertPublicLiteral('https://[2606:4700::1111]/')).not.toThrow();
  });
});

describe('createGuardedFetch', () => {
  it('refuses http://127.0.0.1:PORT/ without sending the local server any request', async () => {
    const server = await site();
    const error = await refusal(get(guarded({ allowPrivateHosts: false }), `${server.base}/`));
    expect(error.message).toContain('refused 127.0.0.1: it is a loopback address');
    expect(server.requests).toEqual([]);
  });

  it('refuses http://localhost:PORT/, which resolves to a loopback address', async () => {
    const server = await site();
    const port = new URL(server.base).port;
    const error = await refusal(get(guarded({ allowPrivateHosts: false }), `http://localhost:${port}/`));
    expect(error.message).toMatch(/^refused localhost: it resolves to (127\.0\.0\.1|::1), which is a loopback address/);
    expect(server.requests).toEqual([]);
  });

  it('refuses a made-up host name that the lookup resolves to 127.0.0.1, naming host, address and --allow-private-hosts', async () => {
    const server = await site();
    const asked: string[] = [];
    const guard = guarded({ allowPrivateHosts: false, lookup: lookupFrom({ 'ok.example.test': ['127.0.0.1'] }, asked) });
    const error = await refusal(get(guard, `http://ok.example.test:${new URL(server.base).port}/secret`));
    expect(asked).toContain('ok.example.test');
    expect(error.message).toContain('refused ok.example.test: it resolves to 127.0.0.1, which is a loopback address');
    expect(error.message).toContain(PRIVATE_HOST_PHRASE);
    expect(error.message).toContain('--allow-private-hosts');
    expect(server.requests).toEqual([]);
  });

  it('refuses a host when any of its addresses is private, even after a public one', async () => {
    const server = await site();
    const guard = guarded({ allowPrivateHosts: false, lookup: lookupFrom({ 'mixed.example.test': ['93.184.215.14', '10.0.0.5'] }) });
    const error = await refusal(get(guard, `http://mixed.example.test:${new URL(server.base).port}/`));
    expect(error.message).toContain('it resolves to 10.0.0.5, which is a private address');
    expect(server.requests).toEqual([]);
  });

  it('with allowPrivateHosts, fetches the same made-up host on 127.0.0.1 and the local server receives the request', async () => {
    const server = await site();
    const guard = guarded({ allowPrivateHosts: true, lookup: lookupFrom({ 'ok.example.test': ['127.0.0.1'] }) });
    const response = await get(guard, `http://ok.example.test:${new URL(server.base).port}/secret`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Secret</title>');
    expect(server.requests.map((request) => request.path)).toEqual(['/secret']);
  });

  it('with allowPrivateHosts, fetches an IP literal on 127.0.0.1', async () => {
    const server = await site();
    const response = await get(guarded({ allowPrivateHosts: true }), `${server.base}/`);
    expect(await response.text()).toContain('<title>Local</title>');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses any scheme but http and https (a redirect to data: or file:), even with allowPrivateHosts', async () => {
    const fetcher = guarded({ allowPrivateHosts: true });
    await expect(get(fetcher, 'data:text/html,<title>x</title>')).rejects.toThrow(/only http and https URLs are fetched/);
    await expect(get(fetcher, 'file:///etc/passwd')).rejects.toThrow(/only http and https URLs are fetched/);
  });

  it('passes a lookup failure through as an ordinary fetch error, not a PrivateHostError', async () => {
    const guard = guarded({ allowPrivateHosts: false, lookup: lookupFrom({}) });
    const error = await get(guard, 'http://nowhere.example.test/').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PrivateHostError);
    expect((error as Error).cause).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('the guard on each redirect hop followed by fetchPage', () => {
  // A guarded first hop to a real public host cannot be served offline: a lookup mapping
  // `redirector.example.test` to a public address would make the test connect to the Internet,
  // and mapping it to 127.0.0.1 gets the first hop refused already. So the first hop here is
  // answered by a stub (a 302 that never touches the network), and every later hop goes
  // through the guarded fetch, as fetchPage calls fetch again for each hop.
  function redirectingThrough(guard: GuardedFetch, location: string): FetchLike {
    return async (input, init) => (input.startsWith('http://redirector.example.test/') ? new Response(null, { status: 302, headers: { location } }) : guard.fetch(input, init));
  }
  const pageOptions = (fetch: FetchLike) => ({ fetch, userAgent: 'citedocs-test/1.0', timeoutMs: 5000, maxBytes: 1_000_000, maxRedirects: 5, retries: 0, retryBaseDelayMs: 1, maxRetryAfterMs: 1000 });

  it('refuses a redirect to http://127.0.0.1:PORT/ and the local server receives no request', async () => {
    const server = await site();
    const fetch = redirectingThrough(guarded({ allowPrivateHosts: false }), `${server.base}/secret`);
    const page = await fetchPage('http://redirector.example.test/start', pageOptions(fetch));
    expect(page.kind).toBe('failed');
    expect(page.kind === 'failed' && page.message).toContain(`GET ${server.base}/secret failed: refused 127.0.0.1: it is a loopback address`);
    expect(server.requests).toEqual([]);
  });

  it('refuses a redirect to a host name that resolves to 127.0.0.1', async () => {
    const server = await site();
    const guard = guarded({ allowPrivateHosts: false, lookup: lookupFrom({ 'internal.example.test': ['127.0.0.1'] }) });
    const target = `http://internal.example.test:${new URL(server.base).port}/secret`;
    const page = await fetchPage('http://redirector.example.test/start', pageOptions(redirectingThrough(guard, target)));
    expect(page.kind === 'failed' && page.message).toContain('refused internal.example.test: it resolves to 127.0.0.1');
    expect(server.requests).toEqual([]);
  });

  it('follows the same redirect when private hosts are allowed', async () => {
    const server = await site();
    const page = await fetchPage('http://redirector.example.test/start', pageOptions(redirectingThrough(guarded({ allowPrivateHosts: true }), `${server.base}/secret`)));
    expect(page).toMatchObject({ kind: 'document', url: `${server.base}/secret`, redirects: [`${server.base}/secret`] });
    expect(server.requests.map((request) => request.path)).toEqual(['/secret']);
  });
});
