import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryOnce, withScratchPostgres } from './scratch-postgres.js';
import { BACKGROUND_NICE } from '../src/lib/background-nice.js';
import { loginOver, startServer, waitUntil } from './server-process.js';

function getOnNewConnection(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/**
 * The real server as a process: data survives a restart, SIGTERM stops it cleanly, and (on PostgreSQL)
 * two processes on one database start together and serve the same users and tokens, beside a third that runs the jobs.
 */
describe('server process', () => {
  it('keeps its data across a restart of the embedded database and stops cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-restart-'));
    const env = { DATA_DIR: dataDir, DEMO_DATA: 'never', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'first-pass' };
    try {
      const first = await startServer(env);
      const token = await loginOver(first.url, 'root', 'first-pass');
      expect(await first.stop()).toBe(0);

      // Second start: the admin exists already (ADMIN_PASSWORD is not applied again), and the
      // signing secret kept in the database still accepts the first process's token.
      const second = await startServer({ ...env, ADMIN_PASSWORD: 'other-pass' });
      const res = await fetch(`${second.url}/api/authorization/user`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { obj: { username: string } }).obj.username).toBe('root');
      await loginOver(second.url, 'root', 'first-pass');
      expect(await second.stop()).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'runs two processes side by side on one PostgreSQL',
    async () =>
      withScratchPostgres('bo_multi', async (url) => {
        const env = { DATABASE_URL: url, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'pw-multi', DEMO_DATA: 'never' };
        // Both start at once: migrations and first-start data are serialised by advisory locks.
        const [a, b] = await Promise.all([startServer(env), startServer(env)]);
        try {
          const token = await loginOver(a.url, 'root', 'pw-multi');
          const onB = await fetch(`${b.url}/api/authorization/grant`, { headers: { authorization: `Bearer ${token}` } });
          expect(onB.status).toBe(200);
          expect(await queryOnce(url, 'SELECT count(*)::int AS n FROM users')).toEqual([{ n: 1 }]);
          expect((await queryOnce(url, 'SELECT count(*)::int AS n FROM schema_migrations'))[0]!.n).toBeGreaterThan(0);
          for (const s of [a, b]) expect(((await (await fetch(`${s.url}/api/health`)).json()) as { status: string }).status).toBe('ok');
        } finally {
          expect(await a.stop()).toBe(0);
          expect(await b.stop()).toBe(0);
        }
      }),
    180_000,
  );

  it('refuses WORKERS above 1 on the embedded database, before opening it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-workers-'));
    try {
      await expect(startServer({ DATA_DIR: dataDir, DATABASE_URL: '', WORKERS: '2' }, 30_000)).rejects.toThrow(/WORKERS=2 needs DATABASE_URL/);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'serves one port from WORKERS=2 processes that share sessions, runs the jobs in a third at the background priority, and stops them together on SIGTERM',
    async () =>
      withScratchPostgres('bo_workers', async (url) => {
        const metricsToken = 'workers-test-metrics-token';
        const env = { DATABASE_URL: url, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'pw-workers', DEMO_DATA: 'never', WORKERS: '2', METRICS_TOKEN: metricsToken };
        const server = await startServer(env);
        const childrenOf = (pid: number) =>
          fs
            .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
            .trim()
            .split(/\s+/)
            .filter(Boolean)
            .map(Number);
        let workers: number[] = [];
        try {
          // Both workers listen: wait until the primary has two children and each has answered.
          const started = new Set<string>();
          for (let i = 0; i < 200 && started.size < 2; i++) {
            // A new connection each time (fetch would keep one alive, and so one process).
            const res = await getOnNewConnection(`${server.url}/api/metrics`, { authorization: `Bearer ${metricsToken}` });
            expect(res.status).toBe(200);
            // Each process names itself (bo_process_info{pid}): two pids mean two processes answered on one port.
            const pid = /^bo_process_info\{pid="(\d+)"\} 1$/m.exec(res.body)?.[1];
            if (pid) started.add(pid);
          }
          workers = childrenOf(server.child.pid!);
          expect(workers).toHaveLength(3);
          // Two of them answer HTTP calls at the planners' priority; the third answers none and runs the jobs with every
          // thread at the background priority (a thread's nice value is its own: /proc/<pid>/task).
          const http = [...started].map(Number).sort();
          const [jobProcess, ...others] = workers.filter((pid) => !started.has(String(pid)));
          expect(others).toEqual([]);
          expect(http).toEqual(workers.filter((pid) => pid !== jobProcess).sort());
          const nices = (pid: number) => fs.readdirSync(`/proc/${pid}/task`).map((tid) => os.getPriority(Number(tid)));
          await waitUntil('the job process to lower its threads', async () => (nices(jobProcess!).every((n) => n >= BACKGROUND_NICE) ? true : undefined), 30_000);
          expect(nices(jobProcess!).length).toBeGreaterThan(4);
          for (const pid of http) expect(nices(pid).every((n) => n < BACKGROUND_NICE), `HTTP worker ${pid}`).toBe(true);
          // A token from one process works on the other: 20 calls spread over both all pass.
          const token = await loginOver(server.url, 'root', 'pw-workers');
          const answers = await Promise.all(
            Array.from({ length: 20 }, () => fetch(`${server.url}/api/authorization/grant`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)),
          );
          expect(answers.every((s) => s === 200)).toBe(true);
          expect(await queryOnce(url, 'SELECT count(*)::int AS n FROM users')).toEqual([{ n: 1 }]);
        } finally {
          expect(await server.stop()).toBe(0);
        }
        for (const pid of workers) expect(fs.existsSync(`/proc/${pid}`), `worker ${pid} outlived the primary`).toBe(false);
      }),
    180_000,
  );
});
