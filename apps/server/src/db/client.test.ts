import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database.js';
import { backgroundSessionOptions, queryRows, sessionOptions } from './client.js';

describe('database connections', () => {
  it('start with JIT off and, for a schema, its search_path', () => {
    expect(sessionOptions()).toBe('-c jit=off');
    expect(sessionOptions('test_1_w1')).toBe('-c jit=off -c search_path=test_1_w1');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, every connection of the pool runs with JIT off', async () => {
    const database = await testDatabase();
    // Several at once, so that more than one connection of the pool answers.
    const answers = await Promise.all(Array.from({ length: 4 }, () => queryRows<{ jit: string }>(database.db, sql`SELECT current_setting('jit') AS jit`)));
    expect(answers.map((rows) => rows[0]!.jit)).toEqual(['off', 'off', 'off', 'off']);
  });

  it('of the jobs (the background pool) start with no parallel query as well', () => {
    expect(backgroundSessionOptions('test_1_w1')).toBe('-c jit=off -c search_path=test_1_w1 -c max_parallel_workers_per_gather=0');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, the jobs\' connections plan no parallel workers, the planners\' keep the server\'s setting', async () => {
    const database = await testDatabase();
    const setting = sql`SELECT current_setting('max_parallel_workers_per_gather') AS n, current_setting('jit') AS jit`;
    const jobs = await Promise.all(Array.from({ length: 3 }, () => queryRows<{ n: string; jit: string }>(database.background, setting)));
    expect(jobs.map((rows) => rows[0])).toEqual([0, 1, 2].map(() => ({ n: '0', jit: 'off' })));
    const [planners] = await queryRows<{ n: string }>(database.db, sql`SELECT current_setting('max_parallel_workers_per_gather') AS n`);
    const [server] = await queryRows<{ n: string }>(database.db, sql`SELECT boot_val AS n FROM pg_settings WHERE name = 'max_parallel_workers_per_gather'`);
    expect(planners!.n).toBe(server!.n);
    expect(planners!.n).not.toBe('0');
  });
});
