/**
 * An export's file stored piece by piece and read back as a stream (export-chunks.ts), on the test
 * database: the bytes come back exactly, across several pieces; a store opened again (a resumed job)
 * starts from nothing; deleting the export deletes its pieces.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/test-database.js';
import { queryRows, type Database } from '../../db/client.js';
import { exportFiles } from '../../db/schema.js';
import { EXPORT_CHUNK_BYTES, ExportChunkStore, exportChunkStream } from './export-chunks.js';

/** The worker's shared test database (left open for the worker's other files). */
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const newExport = async () => {
  const [row] = await database.db.insert(exportFiles).values({ user: 'chunks', exportType: 'xls' }).returning({ id: exportFiles.id });
  return row!.id;
};
const readBack = async (id: number) => Buffer.concat(await exportChunkStream(database.db, id).toArray());
const pieces = async (id: number) => Number((await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM export_file_chunks WHERE export_id = ${id}`))[0]!.n);

describe('export chunks', () => {
  it('stores a file written in uneven pieces as pieces of about 1 MiB and streams it back exactly', async () => {
    const id = await newExport();
    const file = randomBytes(Math.floor(2.5 * EXPORT_CHUNK_BYTES));
    const store = await ExportChunkStore.open(database.db, id);
    for (let at = 0; at < file.length; ) {
      // At most 100 KB: a piece ends within 100 KB past 1 MiB, so two pieces never hold the 2.5 MiB (with 300 KB
      // they could, 1 run in ~30: CI saw 2 pieces).
      const size = 1 + Math.floor(Math.random() * 100_000);
      store.write(file.subarray(at, at + size));
      at += size;
    }
    await store.close();
    expect(store.bytes).toBe(file.length);
    expect(await pieces(id)).toBe(3);
    expect((await readBack(id)).equals(file)).toBe(true);

    // A resumed job opens the store again: the earlier pieces go, the new file alone is read back.
    const again = await ExportChunkStore.open(database.db, id);
    const smaller = randomBytes(1000);
    again.write(smaller);
    await again.close();
    expect(await pieces(id)).toBe(1);
    expect((await readBack(id)).equals(smaller)).toBe(true);

    await database.db.delete(exportFiles).where(eq(exportFiles.id, id));
    expect(await pieces(id)).toBe(0);
  });

  it('reports a failed insert at close', async () => {
    const id = await newExport();
    const store = await ExportChunkStore.open(database.db, id);
    await database.db.delete(exportFiles).where(eq(exportFiles.id, id));
    store.write(randomBytes(EXPORT_CHUNK_BYTES + 1));
    await expect(store.close()).rejects.toThrow();
  });
});
