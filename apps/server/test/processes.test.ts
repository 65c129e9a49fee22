import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryOnce, withScratchPostgres } from './scratch-postgres.js';
import { loginOver, startServer } from './server-process.js';

/**
 * The real server as a process: data survives a restart, SIGTERM stops it cleanly, and (on PostgreSQL)
 * two processes on one database start together and serve the same users and tokens.
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
});
