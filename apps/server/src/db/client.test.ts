import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database.js';
import { queryRows, sessionOptions } from './client.js';

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
});
