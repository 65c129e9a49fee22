import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetDatabase, testDatabase } from '../../test/test-database.js';
import { preparedOnce, type Queryable } from './client.js';
import { brands } from './schema.js';

const brandByCode = (db: Queryable) => db.select().from(brands).where(eq(brands.brandCode, sql.placeholder('code')));

describe('statements built once (preparedOnce)', () => {
  beforeEach(async () => {
    const database = await testDatabase();
    await resetDatabase(database);
    await database.db.insert(brands).values([
      { brandCode: 'AUR', description: 'Aurora Optics' },
      { brandCode: 'MRA', description: 'Marea' },
      { brandCode: 'NRD', description: 'Nordika' },
    ]);
  });

  it('answers each run with its own values, many at once on the pool', async () => {
    const { db } = await testDatabase();
    const codes = ['AUR', 'MRA', 'NRD', 'VLT'];
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => preparedOnce(db, 'test_brand_by_code', brandByCode, { code: codes[i % codes.length] })));
    answers.forEach((rows, i) => {
      const code = codes[i % codes.length]!;
      expect(rows.map((r) => r.brandCode), `run ${i}`).toEqual(code === 'VLT' ? [] : [code]);
    });
  });

  it('runs inside a transaction on its connection: it sees the transaction’s own rows, and nothing is left of them after a rollback', async () => {
    const { db } = await testDatabase();
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(brands).values({ brandCode: 'VLT', description: 'Velto' });
        expect(await preparedOnce(tx, 'test_brand_by_code', brandByCode, { code: 'VLT' })).toEqual([{ brandCode: 'VLT', description: 'Velto' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await preparedOnce(db, 'test_brand_by_code', brandByCode, { code: 'VLT' })).toEqual([]);
  });

  it('is built once per pooled connection, not once per transaction (on the embedded database, once per transaction)', async () => {
    const database = await testDatabase();
    let builds = 0;
    const counted = (d: Queryable) => {
      builds++;
      return brandByCode(d);
    };
    for (let i = 0; i < 6; i++) {
      const rows = await database.db.transaction((tx) => preparedOnce(tx, 'test_brand_by_code_counted', counted, { code: 'NRD' }));
      expect(rows.map((r) => r.brandCode)).toEqual(['NRD']);
    }
    // One transaction at a time: the pool hands the same connection back (or a few), each keeping what was built on it.
    if (database.kind === 'postgres') expect(builds).toBeLessThan(6);
    else expect(builds).toBe(6);
  });

  it('refuses a second text under a name already given one', async () => {
    const { db } = await testDatabase();
    expect(await preparedOnce(db, 'test_brand_by_code', brandByCode, { code: 'MRA' })).toEqual([{ brandCode: 'MRA', description: 'Marea' }]);
    await db.transaction(async (tx) => {
      await expect(
        preparedOnce(tx, 'test_brand_by_code', (d) => d.select().from(brands).where(eq(brands.description, sql.placeholder('code'))), { code: 'Marea' }),
      ).rejects.toThrow('The statement test_brand_by_code was given another text');
    });
  });
});
