import { describe, expect, it } from 'vitest';
import { withScratchPostgres } from './scratch-postgres.js';
import { callOver, loginOver, startServer } from './server-process.js';

/**
 * Sessions that really end, across processes: two servers on one PostgreSQL. A token logged out on one
 * answers 401 on the other at once, although the other had verified (and so remembered) its signature
 * before: revocation is read from the database at every call, never from a process's memory.
 */
describe('logout on one server process', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'ends the session on every process of the same database',
    async () =>
      withScratchPostgres('bo_session_end', async (url) => {
        const env = { DATABASE_URL: url, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'pw-end', DEMO_DATA: 'never' };
        const [a, b] = await Promise.all([startServer(env), startServer(env)]);
        try {
          const token = await loginOver(a.url, 'root', 'pw-end');
          const kept = await loginOver(b.url, 'root', 'pw-end');
          for (const s of [a, b]) {
            expect((await callOver(s, token, 'GET', '/api/authorization/session')).status).toBe(200);
            expect((await callOver(s, token, 'GET', '/api/month/all')).status).toBe(200);
          }

          const out = await fetch(`${a.url}/api/authorization/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
          expect(out.status).toBe(204);

          for (const s of [b, a]) {
            const res = await callOver(s, token, 'GET', '/api/month/all');
            expect(res.status).toBe(401);
            expect(res.body.error).toBe('invalidToken');
            expect((await callOver(s, token, 'GET', '/api/authorization/session')).status).toBe(401);
            // The same user's other session goes on, on both processes.
            expect((await callOver(s, kept, 'GET', '/api/month/all')).status).toBe(200);
          }
          // The revoked token's logout on the other process: still 204.
          expect((await fetch(`${b.url}/api/authorization/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(204);
        } finally {
          expect(await a.stop()).toBe(0);
          expect(await b.stop()).toBe(0);
        }
      }),
    180_000,
  );
});
