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
