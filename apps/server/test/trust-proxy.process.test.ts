import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './server-process.js';

/** A login over a real socket, sent from `from` (an address of the loopback range) with an optional X-Forwarded-For. */
function login(url: string, username: string, password: string, from: string, forwardedFor?: string) {
  return new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
    const body = JSON.stringify({ username, password });
    const req = http.request(
      `${url}/api/authorization/login`,
      {
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the real server behind a proxy', () => {
  it('believes X-Forwarded-For only from the address TRUST_PROXY names', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-proxy-'));
    const server = await startServer({ DATA_DIR: dataDir, DEMO_DATA: 'never', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'pw-proxy', TRUST_PROXY: '127.0.0.2' });
    try {
      // A client talking to the server directly forges a new address on every try: still blocked.
      for (let i = 0; i < 5; i++) expect((await login(server.url, `nobody${i}`, 'bad', '127.0.0.1', `203.0.113.${i}`)).status).toBe(401);
      const blocked = await login(server.url, 'root', 'pw-proxy', '127.0.0.1', '198.51.100.1');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);

      // Through the trusted proxy (127.0.0.2), the forwarded client is the one that counts.
      for (let i = 0; i < 5; i++) await login(server.url, `nobody${i}`, 'bad', '127.0.0.2', '203.0.113.50');
      expect((await login(server.url, 'root', 'pw-proxy', '127.0.0.2', '203.0.113.50')).status).toBe(429);
      expect((await login(server.url, 'root', 'pw-proxy', '127.0.0.2', '203.0.113.51')).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
