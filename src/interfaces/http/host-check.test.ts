import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { createHostCheck } from './host-check.js';

describe('the Host and Origin guard', () => {
  const guard = createHostCheck();

  it.each(['localhost:8787', 'LOCALHOST', '127.0.0.1:8787', '[::1]:8787', '10.1.2.3', undefined, ''])('lets Host %s through by default (localhost, IP addresses, none)', (host) => {
    expect(guard({ host })).toEqual({ ok: true });
  });

  it('refuses a foreign Host (a DNS rebinding name) with forbidden_host, naming the flag that allows it', () => {
    const verdict = guard({ host: 'rebind.evil.example:8787' });
    expect(verdict).toEqual({ ok: false, code: 'forbidden_host', message: expect.stringContaining('--allowed-hosts rebind.evil.example') as string });
  });

  it('refuses a Host that is not a host at all', () => {
    expect(guard({ host: 'a b/c' })).toMatchObject({ ok: false, code: 'forbidden_host' });
  });

  it('lets an allowed name through on any port, and a name:port only on that port', () => {
    const check = createHostCheck({ allowedHosts: ['Docs.Example.com', 'intranet.example:8443'] });
    expect(check({ host: 'docs.example.com' })).toEqual({ ok: true });
    expect(check({ host: 'docs.example.com:9000' })).toEqual({ ok: true });
    expect(check({ host: 'intranet.example:8443' })).toEqual({ ok: true });
    expect(check({ host: 'intranet.example:8444' })).toMatchObject({ ok: false, code: 'forbidden_host' });
    expect(check({ host: 'sub.docs.example.com' })).toMatchObject({ ok: false, code: 'forbidden_host' });
  });

  it('lets any Host through with --allowed-hosts *', () => {
    expect(createHostCheck({ allowedHosts: ['*'] })({ host: 'anything.example' })).toEqual({ ok: true });
  });

  it("lets the page's own origin through: an Origin whose host:port is the request's Host", () => {
    expect(guard({ host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' })).toEqual({ ok: true });
    expect(guard({ host: 'localhost:8080', origin: 'http://localhost:8080' })).toEqual({ ok: true });
    // Behind a TLS-terminating proxy that keeps the Host: the origin is https, its port the default one.
    expect(createHostCheck({ allowedHosts: ['docs.example.com'] })({ host: 'docs.example.com', origin: 'https://docs.example.com' })).toEqual({ ok: true });
  });

  it('refuses another site, another local port and the opaque null origin with forbidden_origin, naming the flag', () => {
    for (const origin of ['https://evil.example', 'http://localhost:3000', 'null']) {
      const verdict = guard({ host: 'localhost:8787', origin });
      expect(verdict).toEqual({ ok: false, code: 'forbidden_origin', message: expect.stringContaining(`--allowed-origins ${origin}`) as string });
    }
  });

  it('lets allowed origins through (compared without a trailing slash or default port), and any with *', () => {
    const check = createHostCheck({ allowedOrigins: ['https://Docs.Example.com:443/', 'null'] });
    expect(check({ host: '127.0.0.1:8787', origin: 'https://docs.example.com' })).toEqual({ ok: true });
    expect(check({ host: '127.0.0.1:8787', origin: 'null' })).toEqual({ ok: true });
    expect(check({ host: '127.0.0.1:8787', origin: 'https://other.example' })).toMatchObject({ ok: false, code: 'forbidden_origin' });
    expect(createHostCheck({ allowedOrigins: ['*'] })({ host: '127.0.0.1:8787', origin: 'https://other.example' })).toEqual({ ok: true });
  });

  it('checks the Host first: an allowed origin does not open a foreign Host', () => {
    const check = createHostCheck({ allowedOrigins: ['https://evil.example'] });
    expect(check({ host: 'evil.example', origin: 'https://evil.example' })).toMatchObject({ ok: false, code: 'forbidden_host' });
  });

  it('refuses allowed hosts and origins that are not hosts or origins, naming them (a usage error)', () => {
    expect(() => createHostCheck({ allowedHosts: ['https://docs.example.com/'] })).toThrow(UsageError);
    expect(() => createHostCheck({ allowedHosts: ['https://docs.example.com/'] })).toThrow(/Allowed host "https:\/\/docs\.example\.com\/"/);
    expect(() => createHostCheck({ allowedOrigins: ['docs.example.com'] })).toThrow(/Allowed origin "docs\.example\.com" is not an origin/);
  });
});
