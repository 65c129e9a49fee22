import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { AUR_EU, buildModule, buildReference, buildSku, buildUser } from './builders.js';
import { withScratchPostgres } from './scratch-postgres.js';
import { loginOver, startServer, waitUntil } from './server-process.js';

/**
 * Live events cross processes (issue 36): with WORKERS=2 on PostgreSQL, streams opened on connections of their own land
 * on both workers (checked in each worker's metrics), and a lock taken through either worker reaches every stream
 * within 2 s: each process LISTENs on the database's channel. PostgreSQL only: the embedded database is one process's.
 */
const METRICS_TOKEN = 'live-processes-metrics-token';
const STREAMS = 6;
const planner = { role: 'SUBMITTER', password: 'pw', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } } as const;

interface RawStream {
  items: { name: string; lockedBy: string | null; at: number }[];
  close(): void;
}

/** A stream on a connection of its own (the primary shares connections out between the workers). */
function openRaw(base: string, token: string): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const items: RawStream['items'] = [];
    const req = http.request(`${base}/api/events?tab=${crypto.randomUUID()}`, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        buffer += d;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: hello$/m.test(block)) resolve({ items, close: () => req.destroy() });
          if (/^event: item$/m.test(block)) items.push({ ...JSON.parse(/^data: (.*)$/m.exec(block)![1]!), at: Date.now() });
        }
      });
    });
    req.on('error', () => undefined);
    req.end();
  });
}

async function streamsPerWorker(base: string): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (let i = 0; i < 100 && seen.size < 2; i++) {
    const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}`, connection: 'close' } });
    const text = await res.text();
    const pid = /^bo_process_info\{pid="(\d+)"\} 1$/m.exec(text)?.[1];
    if (pid && !seen.has(pid)) seen.set(pid, Number(/^bo_live_streams (\d+)$/m.exec(text)?.[1] ?? 0));
  }
  return seen;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('live events with two worker processes (WORKERS=2) on one PostgreSQL', () => {
  it('a lock taken through one worker reaches the streams held by both', async () =>
    withScratchPostgres('bo_live_procs', async (url) => {
      const database = await openDatabase({ url, poolSize: 2 });
      try {
        await migrate(database);
        await buildReference(database.db);
        for (const u of ['anna', 'bruno']) await buildUser(database.db, { username: u, ...planner });
        const sku = await buildSku(database.db);
        await buildModule(database.db, { moduleName: 'MOD_X', skus: [{ upc: sku.upc }] });
      } finally {
        await database.close();
      }
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-live-procs-'));
      const server = await startServer({ DATABASE_URL: url, DEMO_DATA: 'never', WORKERS: '2', METRICS_TOKEN, DATA_DIR: dataDir });
      const streams: RawStream[] = [];
      try {
        const anna = await loginOver(server.url, 'anna', 'pw');
        const bruno = await loginOver(server.url, 'bruno', 'pw');
        await waitUntil(
          'streams on both workers',
          async () => {
            streams.push(await openRaw(server.url, anna));
            const per = await streamsPerWorker(server.url);
            return per.size === 2 && [...per.values()].every((n) => n > 0) ? per : undefined;
          },
          60_000,
          50,
        );
        expect(streams.length).toBeGreaterThanOrEqual(2);
        while (streams.length < STREAMS) streams.push(await openRaw(server.url, anna));
        // Each lock and unlock on a new connection: some go to either worker.
        const key = [{ moduleName: 'MOD_X', monthId: 'M01_2027' }];
        const latencies: number[] = [];
        for (let round = 0; round < 4; round++) {
          for (const [route, holder] of [
            ['/api/module/lock', 'bruno'],
            ['/api/module/unlock', null],
          ] as const) {
            const started = Date.now();
            const res = await fetch(`${server.url}${route}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${bruno}`, 'content-type': 'application/json', connection: 'close' },
              body: JSON.stringify(key),
            });
            expect(res.status).toBe(200);
            for (const s of streams) {
              const got = await waitUntil('the item event', async () => s.items.find((i) => i.at >= started && i.name === 'MOD_X' && i.lockedBy === holder), 2000, 10);
              latencies.push(got.at - started);
            }
          }
        }
        latencies.sort((a, b) => a - b);
        console.log(`cross-process item events: ${latencies.length}, p50 ${latencies[Math.floor(latencies.length / 2)]} ms, max ${latencies.at(-1)} ms`);
      } finally {
        for (const s of streams) s.close();
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }), 180_000);
});
