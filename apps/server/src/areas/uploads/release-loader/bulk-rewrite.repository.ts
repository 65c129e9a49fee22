/**
 * A bulk rewrite of a large share of one table, the way pg_restore loads data: inside the caller's
 * transaction the table's foreign keys, primary key and indexes are dropped, the rows are written, and
 * the same definitions (read from the catalog, so a later migration cannot drift from a copy here)
 * are created again — one sort per index and one join per foreign key instead of a trigger and an index
 * descent per row. A failure anywhere rolls the whole transaction back, definitions included.
 *
 * The cost: the table is locked ACCESS EXCLUSIVE until the transaction ends (nobody reads it meanwhile), and
 * so are the tables its foreign keys reference (dropping a foreign key drops its triggers on the referenced
 * table: for module_skus, `modules` and `skus`, which every search reads), and rebuilding scans the whole
 * table — worth it only when the load writes much of it and nobody else works on those tables (the release
 * loader's `bulkLines`; docs/RELEASE-FILES.md "Load").
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../../db/client.js';

interface Definitions {
  /** Foreign keys and the primary key: `ALTER TABLE … ADD CONSTRAINT name <definition>`. */
  constraints: { name: string; definition: string; primary: boolean }[];
  /** Indexes that no constraint owns: their full CREATE INDEX statements. */
  indexes: { name: string; statement: string }[];
}

async function definitionsOf(db: Queryable, table: string): Promise<Definitions> {
  const constraints = await queryRows<{ name: string; definition: string; contype: string }>(
    db,
    sql`SELECT conname AS name, pg_get_constraintdef(oid) AS definition, contype FROM pg_constraint
        WHERE conrelid = ${table}::regclass AND contype IN ('p', 'f', 'u') ORDER BY contype DESC, conname`,
  );
  const indexes = await queryRows<{ name: string; statement: string }>(
    db,
    sql`SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS statement FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = ${table}::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)
        ORDER BY c.relname`,
  );
  return { constraints: constraints.map((c) => ({ name: c.name, definition: c.definition, primary: c.contype !== 'f' })), indexes };
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Runs `write` with `table`'s keys and indexes dropped, then puts them back; answers what `write` answered. */
export async function withIndexesRebuilt<T>(db: Queryable, table: string, write: () => Promise<T>): Promise<T> {
  const defs = await definitionsOf(db, table);
  const name = quoted(table);
  // Index builds sort in memory rather than on disk when they can (this transaction only).
  await db.execute(sql`SET LOCAL maintenance_work_mem = '256MB'`);
  await db.execute(sql.raw(`LOCK TABLE ${name} IN ACCESS EXCLUSIVE MODE`));
  if (defs.constraints.length > 0) {
    await db.execute(sql.raw(`ALTER TABLE ${name} ${defs.constraints.map((c) => `DROP CONSTRAINT ${quoted(c.name)}`).join(', ')}`));
  }
  for (const index of defs.indexes) await db.execute(sql.raw(`DROP INDEX ${quoted(index.name)}`));
  const result = await write();
  // Keys first (their indexes), then the other indexes, then the foreign keys (validated by one join each).
  const keys = defs.constraints.filter((c) => c.primary);
  const foreign = defs.constraints.filter((c) => !c.primary);
  for (const c of keys) await db.execute(sql.raw(`ALTER TABLE ${name} ADD CONSTRAINT ${quoted(c.name)} ${c.definition}`));
  for (const index of defs.indexes) await db.execute(sql.raw(index.statement));
  if (foreign.length > 0) {
    await db.execute(sql.raw(`ALTER TABLE ${name} ${foreign.map((c) => `ADD CONSTRAINT ${quoted(c.name)} ${c.definition}`).join(', ')}`));
  }
  return result;
}
