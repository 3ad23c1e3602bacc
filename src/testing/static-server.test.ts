import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStaticServer } from './static-server.js';

describe('startStaticServer', () => {
  it('leaves closing an idle keep-alive connection to the client, and still closes promptly', async () => {
    const root = mkdtempSync(join(tmpdir(), 'citedocs-static-'));
    writeFileSync(join(root, 'a.html'), '<p>a</p>');
    const server = await startStaticServer(root);
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      request(`${server.url}a.html`, { headers: { connection: 'keep-alive' } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.headers));
      })
        .on('error', reject)
        .end();
    });
    // No idle limit announced (Keep-Alive: timeout=5), so the server never races a client reusing the connection.
    expect(headers['connection']).toBe('keep-alive');
    expect(headers['keep-alive']).toBeUndefined();
    await server.close();
  });
});
