import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
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
    async () => {
      const base = new URL(process.env.TEST_DATABASE_URL!);
      const dbName = `bo_multi_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: base.toString() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      const url = new URL(base.toString());
      url.pathname = `/${dbName}`;
      const env = { DATABASE_URL: url.toString(), ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'pw-multi', DEMO_DATA: 'never' };
      try {
        // Both start at once: migrations and first-start data are serialised by advisory locks.
        const [a, b] = await Promise.all([startServer(env), startServer(env)]);
        try {
          const token = await loginOver(a.url, 'root', 'pw-multi');
          const onB = await fetch(`${b.url}/api/authorization/grant`, { headers: { authorization: `Bearer ${token}` } });
          expect(onB.status).toBe(200);
          const direct = new pg.Client({ connectionString: url.toString() });
          await direct.connect();
          const users = await direct.query('SELECT count(*)::int AS n FROM users');
          const migrations = await direct.query('SELECT count(*)::int AS n FROM schema_migrations');
          await direct.end();
          expect(users.rows[0].n).toBe(1);
          expect(migrations.rows[0].n).toBeGreaterThan(0);
          for (const s of [a, b]) expect(((await (await fetch(`${s.url}/api/health`)).json()) as { status: string }).status).toBe("ok");
        } finally {
          expect(await a.stop()).toBe(0);
          expect(await b.stop()).toBe(0);
        }
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
    180_000,
  );
});
