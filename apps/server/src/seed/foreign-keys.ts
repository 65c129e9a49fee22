/**
 * Bulk loading without per-row foreign-key triggers. PostgreSQL checks each inserted row's foreign
 * keys with a trigger and an index probe; for the hundreds of thousands of fact rows of the demo
 * that is most of the load time (measured on PGlite: sku_performance 23 s with its four foreign
 * keys, 2.6 s without). When the session may do so (db/replica-mode.ts: always on the embedded database),
 * the load runs with session_replication_role = replica, which leaves those triggers out, and then
 * checks every foreign key once, set-wise, before the transaction commits — the same guarantee,
 * as pg_restore --disable-triggers gives it.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../db/client.js';
import { mayUseReplicaMode } from '../db/replica-mode.js';

/** Turns the per-row checks off for the current transaction when allowed (db/replica-mode.ts); true if it did. */
export async function deferForeignKeyChecks(tx: Queryable): Promise<boolean> {
  if (!(await mayUseReplicaMode(tx))) return false;
  await tx.execute(sql`SET LOCAL session_replication_role = replica`);
  return true;
}

interface ForeignKey {
  name: string;
  child: string;
  parent: string;
  childColumns: string[];
  parentColumns: string[];
}

/** Checks every foreign key of the current schema; throws naming the first one with dangling rows. */
export async function verifyForeignKeys(tx: Queryable): Promise<number> {
  const keys = await queryRows<ForeignKey>(
    tx,
    sql`SELECT c.conname AS name, child.relname AS child, parent.relname AS parent,
               ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(num, pos)
                     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY k.pos) AS "childColumns",
               ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(num, pos)
                     JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num ORDER BY k.pos) AS "parentColumns"
        FROM pg_constraint c
        JOIN pg_class child ON child.oid = c.conrelid
        JOIN pg_class parent ON parent.oid = c.confrelid
        JOIN pg_namespace n ON n.oid = child.relnamespace
        WHERE c.contype = 'f' AND n.nspname = current_schema()
        ORDER BY c.conname`,
  );
  for (const fk of keys) {
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const notNull = fk.childColumns.map((c) => `x.${quote(c)} IS NOT NULL`).join(' AND ');
    const match = fk.childColumns.map((c, i) => `p.${quote(fk.parentColumns[i]!)} = x.${quote(c)}`).join(' AND ');
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql.raw(
        `SELECT count(*)::int AS n FROM ${quote(fk.child)} x WHERE ${notNull} AND NOT EXISTS (SELECT 1 FROM ${quote(fk.parent)} p WHERE ${match})`,
      ),
    );
    if (Number(row?.n ?? 0) > 0) throw new Error(`Foreign key ${fk.name}: ${row!.n} rows of ${fk.child} point nowhere`);
  }
  return keys.length;
}
