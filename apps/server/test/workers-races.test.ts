import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { AUR_EU, buildModule, buildReference, buildSku, buildUser } from './builders.js';
import { queryOnce, withScratchPostgres } from './scratch-postgres.js';
import { startServer, waitUntil } from './server-process.js';

/**
 * The races of module-concurrency.api.test.ts and the exactly-once job claims of job-runner.test.ts,
 * against a real server with WORKERS=2 on PostgreSQL: every request goes on a new connection, so the
 * primary shares them out between the two worker processes (and the test checks that both answered
 * each kind of call). PostgreSQL only: the embedded database belongs to one process.
 */
const RACERS = Array.from({ length: 12 }, (_, i) => `racer${String(i + 1).padStart(2, '0')}`);
const ROUNDS = 2;
const PUBLISHED = 10;
const METRICS_TOKEN = 'workers-races-metrics-token';
const racer = { role: 'SUBMITTER', password: 'pw', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } } as const;

interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each check reads the fields it expects
  body: any;
  text: string;
}

/** One request on a connection of its own (fetch would keep one alive, and so talk to one process). */
function send(base: string, method: string, url: string, token?: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let parsed: unknown = undefined;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON (metrics) */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Per worker pid, how many answers it gave to `POST route` (its own http_requests_total). */
async function answersPerWorker(base: string, route: string): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (let i = 0; i < 100 && seen.size < 2; i++) {
    const res = await send(base, 'GET', '/api/metrics', METRICS_TOKEN);
    const pid = /^bo_process_info\{pid="(\d+)"\} 1$/m.exec(res.text)?.[1];
    if (!pid || seen.has(pid)) continue;
    let n = 0;
    for (const m of res.text.matchAll(/^http_requests_total\{([^}]*)\} (\d+)$/gm)) {
      if (m[1]!.includes(`route="${route}"`) && m[1]!.includes('method="POST"')) n += Number(m[2]);
    }
    seen.set(pid, n);
  }
  return seen;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two worker processes (WORKERS=2) on one PostgreSQL', () => {
  it('give a lock to exactly one racer, lose no save, publish a module once, run each job once in the job process, accept every token on both', async () =>
    withScratchPostgres('bo_races', async (url) => {
      const database = await openDatabase({ url, poolSize: 2 });
      const spare: string[] = [];
      try {
        await migrate(database);
        const db = database.db;
        await buildReference(db);
        for (const u of RACERS) await buildUser(db, { username: u, ...racer });
        const first = await buildSku(db);
        for (let i = 0; i < RACERS.length * ROUNDS * 2; i++) spare.push((await buildSku(db)).upc);
        for (const name of ['RACE_A', 'RACE_B']) await buildModule(db, { moduleName: name, skus: [{ upc: first.upc }] });
        for (let i = 0; i < PUBLISHED; i++) await buildModule(db, { moduleName: `PUB_${String(i).padStart(2, '0')}`, skus: [{ upc: first.upc }] });
      } finally {
        await database.close();
      }

      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-races-'));
      // A planning system that takes a while: the two job runners then both have jobs to claim.
      const env = { DATABASE_URL: url, DEMO_DATA: 'never', WORKERS: '2', METRICS_TOKEN, DATA_DIR: dataDir, PLANNING_SYSTEM_DELAY_MS: '200' };
      const server = await startServer(env);
      const base = server.url;
      try {
        // Both workers listen before the races start.
        await waitUntil('two workers', async () => ((await answersPerWorker(base, '/api/module/lock')).size === 2 ? true : undefined), 60_000, 200);

        // Sessions: each racer logs in on one process; every later call may land on the other.
        const tokens = new Map<string, string>();
        for (const u of RACERS) {
          const res = await send(base, 'POST', '/api/authorization/login', undefined, { username: u, password: 'pw' });
          expect(res.status).toBe(200);
          tokens.set(u, res.body.access_token);
        }
        const post = (u: string, route: string, body: unknown) => send(base, 'POST', route, tokens.get(u), body);

        // Locks and saves: everybody at once, only the holder writes.
        let nextSpare = 0;
        const expected = new Map<string, string[]>();
        for (let round = 0; round < ROUNDS; round++) {
          for (const moduleName of ['RACE_A', 'RACE_B']) {
            const key = { moduleName, monthId: 'M01_2027' };
            const answers = await Promise.all(RACERS.map((u) => post(u, '/api/module/lock', [key]).then((r) => ({ u, status: r.status, lock: r.body[0] }))));
            expect(answers.every((a) => a.status === 200)).toBe(true);
            const winners = answers.filter((a) => a.lock.acquired);
            expect(winners).toHaveLength(1);
            const holder = winners[0]!.u;
            for (const a of answers) expect(a.lock.userLock).toBe(holder);
            expect(await queryOnce(url, `SELECT owner FROM locks WHERE item_type = 'module' AND item_key = '${moduleName}'`)).toEqual([{ owner: holder }]);

            const reads = await Promise.all(RACERS.map((u) => post(u, '/api/module/details', [key]).then((r) => ({ u, module: r.body[0] }))));
            const saves = await Promise.all(
              reads.map(({ u, module }) => {
                const upc = spare[nextSpare++]!;
                if (u === holder) expected.set(moduleName, [...(expected.get(moduleName) ?? module.productDtoList.map((p: { upc: string }) => p.upc)), upc]);
                const productDtoList = [...module.productDtoList, { upc, mustHave: false, moduleCompositionStatus: 'ADDED' }];
                return post(u, '/api/module/save', { ...key, productDtoList }).then((r) => ({ u, status: r.status }));
              }),
            );
            expect(saves.filter((s) => s.status === 200).map((s) => s.u)).toEqual([holder]);
            expect(saves.filter((s) => s.status !== 200).every((s) => s.status === 422)).toBe(true);
            expect((await post(holder, '/api/module/unlock', [key])).status).toBe(200);
          }
        }
        for (const moduleName of ['RACE_A', 'RACE_B']) {
          const [detail] = (await post(RACERS[0]!, '/api/module/details', [{ moduleName, monthId: 'M01_2027' }])).body;
          expect(detail.productDtoList.map((p: { upc: string }) => p.upc)).toEqual(expected.get(moduleName));
          expect(detail.version).toBe(1 + ROUNDS);
        }

        // Publish races: everybody publishes both modules at once; one submission each.
        const raceKeys = ['RACE_A', 'RACE_B'].map((moduleName) => ({ moduleName, monthId: 'M01_2027' }));
        const lockAnswers = await Promise.all(RACERS.map((u) => post(u, '/api/module/lock', raceKeys).then((r) => ({ u, body: r.body }))));
        const holders = raceKeys.map((_, i) => lockAnswers.filter((a) => a.body[i].acquired).map((a) => a.u));
        for (const h of holders) expect(h).toHaveLength(1);
        const attempts = await Promise.all(RACERS.flatMap((u) => raceKeys.map((k) => post(u, '/api/module/publish', k).then((r) => ({ u, k, status: r.status, body: r.body })))));
        for (const [i, k] of raceKeys.entries()) {
          const ok = attempts.filter((a) => a.k === k && a.status === 200);
          expect(ok.map((a) => a.u)).toEqual(holders[i]);
          expect(ok[0]!.body.message).toBe('The submission process has been started');
        }
        expect(attempts.filter((a) => a.status !== 200).every((a) => a.status === 422)).toBe(true);

        // Jobs: ten more publishes at once, each a job that either process may claim.
        const pubKeys = Array.from({ length: PUBLISHED }, (_, i) => ({ moduleName: `PUB_${String(i).padStart(2, '0')}`, monthId: 'M01_2027' }));
        const publisher = RACERS[0]!;
        expect((await post(publisher, '/api/module/lock', pubKeys)).body.every((l: { acquired: boolean }) => l.acquired)).toBe(true);
        const started = await Promise.all(pubKeys.map((k) => post(publisher, '/api/module/publish', k)));
        expect(started.map((s) => s.status)).toEqual(pubKeys.map(() => 200));

        const jobs = await waitUntil(
          'every publish job to finish',
          async () => {
            const rows = (await queryOnce(url, `SELECT status, attempts, worker_id FROM jobs WHERE kind = 'publish'`)) as { status: string; attempts: number; worker_id: string }[];
            return rows.length === PUBLISHED + 2 && rows.every((r) => r.status === 'DONE' || r.status === 'FAILED') ? rows : undefined;
          },
          60_000,
          200,
        );
        expect(jobs.every((j) => j.status === 'DONE' && j.attempts === 1)).toBe(true);
        // One process claimed them all (a worker id names its pid): the job process, which answers no HTTP call (below),
        // running WORKERS jobs at once. Each submission was sent once.
        const claimers = new Set(jobs.map((j) => j.worker_id.split(':')[1]!));
        expect(claimers.size).toBe(1);
        expect(fs.readdirSync(path.join(dataDir, 'outbox'))).toHaveLength(PUBLISHED + 2);
        const statuses = (await queryOnce(url, 'SELECT status, count(*)::int AS n FROM modules GROUP BY status')) as { status: string; n: number }[];
        expect(statuses).toEqual([{ status: 'SUBMITTED', n: PUBLISHED + 2 }]);

        // Both processes answered locks, saves and publishes (their own request counters).
        for (const route of ['/api/module/lock', '/api/module/save', '/api/module/publish']) {
          const counts = await answersPerWorker(base, route);
          expect(counts.size).toBe(2);
          for (const claimer of claimers) expect(counts.has(claimer), `the job process ${claimer} answered ${route}`).toBe(false);
          for (const [pid, n] of counts) expect(n, `worker ${pid} answered no ${route}`).toBeGreaterThan(0);
        }
      } finally {
        expect(await server.stop()).toBe(0);
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }), 180_000);
});
