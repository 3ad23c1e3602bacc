/**
 * The address cases of the hostile-site suite on real addresses: a fake metadata service on
 * 169.254.169.254 and an intranet docs server on 10.0.0.7, inside a network namespace this
 * test creates (`unshare -rnm`: its own loopback device, its own /etc/hosts), so no packet
 * leaves it. The scenario script (namespace/hostile-namespace.ts) reports what each server
 * received; the metadata service must receive nothing, in every scenario.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Whether this machine lets an unprivileged process create user, network and mount namespaces (CI must). */
const namespaces = spawnSync('unshare', ['-rnm', 'true']).status === 0;

interface Scenario {
  code: number;
  stdout: string;
  stderr: string;
  requests: { metadata: number; intranet: number };
  /** Passages of the index holding the metadata service's secret. */
  secretPassages: number;
}
let result: { scenarios: Record<string, Scenario>; metadataRequests: unknown[]; intranetRequests: { host: string; path: string }[] };

describe.runIf(namespaces || process.env['CI'] !== undefined)('a crawl inside a network namespace with metadata and intranet addresses', () => {
  beforeAll(() => {
    const hosts = join(mkdtempSync(join(tmpdir(), 'citedocs-hosts-')), 'hosts');
    writeFileSync(hosts, '127.0.0.1 localhost\n169.254.169.254 metadata.hostile.test\n10.0.0.7 docs.intranet.test\n');
    const setup = [
      'set -e',
      'ip link set lo up',
      'ip addr add 169.254.169.254/32 dev lo',
      'ip addr add 10.0.0.7/32 dev lo',
      `mount --bind ${hosts} /etc/hosts`,
      `exec "${process.execPath}" --import tsx test/e2e/namespace/hostile-namespace.ts`,
    ].join('\n');
    const run = spawnSync('unshare', ['-rnm', 'sh', '-c', setup], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0) throw new Error(`the namespace scenario failed (${run.status}): ${run.stderr}`);
    result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as typeof result;
  }, 150_000);

  it('sends 0 requests to the metadata address, whatever the site does', () => {
    expect(result.metadataRequests).toEqual([]);
  });

  it('crawls a hostile loopback site completely, storing nothing from the metadata service or the intranet host', () => {
    const { hostileSite } = result.scenarios;
    expect(hostileSite?.code).toBe(0);
    expect(hostileSite?.requests).toEqual({ metadata: 0, intranet: 0 });
    expect(hostileSite?.secretPassages).toBe(0);
  });

  it('refuses a start URL that redirects to the metadata address, by address or by a name resolving to it, even with --allow-host', () => {
    const { startRedirectsToMetadata, startRedirectsToAllowedNameOnMetadata } = result.scenarios;
    expect(startRedirectsToMetadata?.code).toBe(1);
    expect(startRedirectsToMetadata?.stderr).toMatch(/redirects to http:\/\/169\.254\.169\.254\/latest\/meta-data\/, which was not followed: 169\.254\.169\.254 is another host/);
    expect(startRedirectsToAllowedNameOnMetadata?.code).toBe(1);
    expect(startRedirectsToAllowedNameOnMetadata?.stderr).toMatch(/refused metadata\.hostile\.test: it resolves to 169\.254\.169\.254, which is a linkLocal address/);
  });

  it('refuses an intranet start URL without --allow-private-hosts, before sending anything, and says how to allow it', () => {
    const { intranetWithoutFlag, intranetNameWithoutFlag } = result.scenarios;
    expect(intranetWithoutFlag?.code).toBe(1);
    expect(intranetWithoutFlag?.stderr).toMatch(/refused 10\.0\.0\.7: it is a private address\..*--allow-private-hosts/);
    expect(intranetWithoutFlag?.requests.intranet).toBe(0);
    expect(intranetNameWithoutFlag?.code).toBe(1);
    expect(intranetNameWithoutFlag?.stderr).toMatch(/refused docs\.intranet\.test: it resolves to 10\.0\.0\.7, which is a private address/);
    expect(intranetNameWithoutFlag?.requests.intranet).toBe(0);
  });

  it('crawls an intranet site with --allow-private-hosts, and still never follows it to the metadata address', () => {
    const { intranetWithFlag } = result.scenarios;
    expect(intranetWithFlag?.code).toBe(0);
    expect(JSON.parse(intranetWithFlag?.stdout ?? '{}')).toMatchObject({ pages: 2 });
    expect(result.intranetRequests.every((request) => request.host === 'docs.intranet.test')).toBe(true);
    expect(intranetWithFlag?.requests.metadata).toBe(0);
  });
});
