import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { htmlPage, serveSite, type SiteServer } from '../../testing/http-site.js';
import { type GuardedFetch, type LookupFunction, PrivateHostError } from '../web/host-guard.js';
import { createCrawlFetch, createHostPolicy } from './host-policy.js';

const servers: SiteServer[] = [];
const fetches: GuardedFetch[] = [];
afterEach(async () => Promise.all([...fetches.splice(0).map((guard) => guard.close()), ...servers.splice(0).map((server) => server.close())]));

/** Made-up host names, all resolving to this machine's loopback address. */
const toLoopback: LookupFunction = (_hostname, options, callback) => (options.all === true ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4));

describe('createHostPolicy: which hosts a crawl may reach', () => {
  const policy = createHostPolicy({ startUrl: 'http://docs.example.com/guide/', allowedHosts: ['cdn.example.net', '127.0.0.1:9000'] });

  it('allows the start host, over https and with or without www., on its own port', () => {
    for (const url of ['http://docs.example.com/other/', 'https://docs.example.com/guide/', 'http://www.docs.example.com/x']) expect(policy.hostRefusal(url)).toBeUndefined();
    expect(createHostPolicy({ startUrl: 'https://www.example.com/' }).hostRefusal('https://example.com/docs/')).toBeUndefined();
  });

  it('refuses every other host, port and scheme, saying how to allow it', () => {
    expect(policy.hostRefusal('http://docs.example.com:8080/')).toMatch(/docs\.example\.com:8080 is another host than the start URL's \(docs\.example\.com\).*--allow-host docs\.example\.com:8080/);
    expect(policy.hostRefusal('http://169.254.169.254/latest/meta-data/')).toMatch(/169\.254\.169\.254 is another host/);
    expect(policy.hostRefusal('http://evil.example/')).toMatch(/another host/);
    expect(policy.hostRefusal('file:///etc/passwd')).toMatch(/only http and https/);
  });

  it('allows the hosts the user named: any port for a name, one port for host:port', () => {
    expect(policy.hostRefusal('https://cdn.example.net:8443/a')).toBeUndefined();
    expect(policy.hostRefusal('http://127.0.0.1:9000/')).toBeUndefined();
    expect(policy.hostRefusal('http://127.0.0.1:9001/')).toMatch(/another host/);
  });

  it('refuses an --allow-host that is not a host, naming it', () => {
    expect(() => createHostPolicy({ startUrl: 'http://a.example/', allowedHosts: ['http://b.example/path'] })).toThrow(UsageError);
    expect(() => createHostPolicy({ startUrl: 'http://a.example/', allowedHosts: ['b example'] })).toThrow(/--allow-host b example is not a host/);
  });

  it('lets only hosts the user named be non-public: loopback when the name says so, private only with allowPrivateHosts', () => {
    expect(createHostPolicy({ startUrl: 'http://127.0.0.1:8080/' }).mayBePrivate('127.0.0.1')).toBe(true);
    expect(createHostPolicy({ startUrl: 'http://localhost:8080/' }).mayBePrivate('localhost')).toBe(true);
    expect(createHostPolicy({ startUrl: 'http://[::1]:8080/' }).mayBePrivate('[::1]')).toBe(true);
    // A public-looking name that resolves to loopback (DNS rebinding) is no local server the user meant.
    expect(createHostPolicy({ startUrl: 'http://docs.example.com/' }).mayBePrivate('docs.example.com')).toBe(false);
    expect(createHostPolicy({ startUrl: 'http://docs.intranet/', allowPrivateHosts: true }).mayBePrivate('docs.intranet')).toBe(true);
    expect(createHostPolicy({ startUrl: 'http://127.0.0.1:8080/', allowPrivateHosts: true }).mayBePrivate('169.254.169.254')).toBe(false);
    expect(createHostPolicy({ startUrl: 'http://127.0.0.1:8080/' }).mayBePrivate('127.0.0.2')).toBe(false);
  });
});

describe('createCrawlFetch: the address guard', () => {
  async function loopbackSite() {
    const server = await serveSite({ '/': htmlPage('Local') });
    servers.push(server);
    return server;
  }
  const crawlFetch = (...args: Parameters<typeof createCrawlFetch>) => {
    const guard = createCrawlFetch(...args);
    fetches.push(guard);
    return guard;
  };
  const get = (guard: GuardedFetch, url: string) => guard.fetch(url, { signal: AbortSignal.timeout(5000) });

  it('reaches a loopback start URL that names 127.0.0.1', async () => {
    const server = await loopbackSite();
    const response = await get(crawlFetch(createHostPolicy({ startUrl: `${server.base}/` })), `${server.base}/`);
    expect(response.status).toBe(200);
  });

  it('refuses a start host whose name resolves to a non-public address, before sending anything, unless allowPrivateHosts', async () => {
    const server = await loopbackSite();
    const url = `http://docs.intranet.test:${new URL(server.base).port}/`;
    const refused = await get(crawlFetch(createHostPolicy({ startUrl: url }), { lookup: toLoopback }), url).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(PrivateHostError);
    expect((refused as Error).message).toMatch(/^refused docs\.intranet\.test: it resolves to 127\.0\.0\.1, which is a loopback address\..*--allow-private-hosts/);
    expect(server.requests).toEqual([]);
    const allowed = await get(crawlFetch(createHostPolicy({ startUrl: url, allowPrivateHosts: true }), { lookup: toLoopback }), url);
    expect(allowed.status).toBe(200);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a non-public address literal that is not the start host', async () => {
    const server = await loopbackSite();
    const other = `http://127.0.0.2:${new URL(server.base).port}/`;
    await expect(get(crawlFetch(createHostPolicy({ startUrl: `${server.base}/` })), other)).rejects.toThrow(/^refused 127\.0\.0\.2: it is a loopback address/);
    expect(server.requests).toEqual([]);
  });
});
