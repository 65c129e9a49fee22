/**
 * SQL of the deletion area, for both item kinds. The two tables share the columns deletion works on
 * (deletion_status, created_after_delete, brand_code, month_id, status), so one set of statements
 * serves both, with the table and key column picked from constants (never from input).
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DeletionItemType } from '@bo/shared/deletion';
import type { Queryable } from '../../db/client.js';
import { queryRows } from '../../db/client.js';
import { deletionRequests, months } from '../../db/schema.js';

const KIND = {
  module: { table: sql.raw('modules'), key: sql.raw('module_name'), label: sql.raw('module_label') },
  cluster: { table: sql.raw('clusters'), key: sql.raw('cluster_id'), label: sql.raw('cluster_label') },
} as const;

/** One month row of an item, with the month's place in time (for "this month and later"). */
export interface ItemRow {
  id: number;
  key: string;
  monthId: string;
  label: string;
  brand: string;
  status: string;
  deletionStatus: string | null;
  createdAfterDelete: boolean;
  /** year * 12 + month - 1: orders months like compareMonthIds. */
  monthIndex: number;
  open: boolean;
}

interface RawItemRow extends Omit<ItemRow, 'id' | 'monthIndex'> {
  id: string;
  monthIndex: string | number;
}

const toItemRow = (r: RawItemRow): ItemRow => ({ ...r, id: Number(r.id), monthIndex: Number(r.monthIndex) });

/** Long key lists go in slices: a statement takes at most 65,535 parameters. */
const SLICE = 5000;
async function inSlices<K, T>(values: readonly K[], run: (slice: K[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(values)];
  const out: T[] = [];
  for (let i = 0; i < unique.length; i += SLICE) out.push(...(await run(unique.slice(i, i + SLICE))));
  return out;
}

/** Every row (any month, live or not) of the given items, oldest month first. */
export async function itemRows(db: Queryable, type: DeletionItemType, keys: readonly string[], forUpdate = false): Promise<ItemRow[]> {
  const k = KIND[type];
  const rows = await inSlices(keys, (slice) =>
    queryRows<RawItemRow>(
      db,
      sql`SELECT t.id::text AS id, t.${k.key} AS key, t.month_id AS "monthId", t.${k.label} AS label, t.brand_code AS brand,
                 t.status, t.deletion_status AS "deletionStatus", t.created_after_delete AS "createdAfterDelete",
                 (mo.year * 12 + mo.month - 1) AS "monthIndex", mo.open
          FROM ${k.table} t JOIN months mo ON mo.month_id = t.month_id
          WHERE t.${k.key} IN ${slice}
          ORDER BY t.${k.key}, mo.year, mo.month
          ${forUpdate ? sql`FOR UPDATE OF t` : sql``}`,
    ),
  );
  return rows.map(toItemRow);
}

/** The stars zones of item rows: a module's own zones; a cluster's, the zones of its countries. */
export async function zonesOf(db: Queryable, type: DeletionItemType, ids: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const rows = await inSlices(ids, (slice) =>
    type === 'module'
      ? queryRows<{ id: string; zone: string }>(
          db,
          sql`SELECT module_id::text AS id, stars_zone AS zone FROM module_stars_zones WHERE module_id IN ${slice} ORDER BY stars_zone`,
        )
      : queryRows<{ id: string; zone: string }>(
          db,
          sql`SELECT DISTINCT cc.cluster_pk::text AS id, c.stars_zone AS zone
              FROM cluster_countries cc JOIN countries c ON c.country_code = cc.country_code
              WHERE cc.cluster_pk IN ${slice} ORDER BY zone`,
        ),
  );
  for (const r of rows) out.set(Number(r.id), [...(out.get(Number(r.id)) ?? []), r.zone]);
  return out;
}

/** The first store (by store id) of each cluster row. */
export async function firstStores(db: Queryable, clusterPks: readonly number[]): Promise<Map<number, { storeJda: string; codiceStoreSap: string }>> {
  const out = new Map<number, { storeJda: string; codiceStoreSap: string }>();
  const rows = await inSlices(clusterPks, (slice) =>
    queryRows<{ id: string; storeJda: string; codiceStoreSap: string }>(
      db,
      sql`SELECT DISTINCT ON (cs.cluster_pk) cs.cluster_pk::text AS id, s.store_jda AS "storeJda", s.codice_store_sap AS "codiceStoreSap"
          FROM cluster_stores cs JOIN stores s ON s.store_jda = cs.store_jda
          WHERE cs.cluster_pk IN ${slice}
          ORDER BY cs.cluster_pk, s.store_jda`,
    ),
  );
  for (const r of rows) out.set(Number(r.id), { storeJda: r.storeJda, codiceStoreSap: r.codiceStoreSap });
  return out;
}

/** Marks live rows DELETION_PENDING; answers the months actually marked. */
export async function markPending(tx: Queryable, type: DeletionItemType, ids: readonly number[], username: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const k = KIND[type];
  const rows = await queryRows<{ monthId: string }>(
    tx,
    sql`UPDATE ${k.table} SET deletion_status = 'DELETION_PENDING', updated_at = now(), updated_by = ${username}, version = version + 1
        WHERE id IN ${[...ids]} AND deletion_status IS NULL
        RETURNING month_id AS "monthId"`,
  );
  return rows.map((r) => r.monthId);
}

export async function insertRequest(
  tx: Queryable,
  request: { itemType: DeletionItemType; itemKey: string; deleteFromMonthId: string; requestedBy: string },
): Promise<number> {
  const [row] = await tx.insert(deletionRequests).values(request).returning({ id: deletionRequests.id });
  return row!.id;
}

export type DeletionRequestRow = typeof deletionRequests.$inferSelect;

/** The deletion requests of the items, newest first. */
export async function requestsOf(db: Queryable, type: DeletionItemType, keys: readonly string[]): Promise<DeletionRequestRow[]> {
  const rows = await inSlices(keys, (slice) =>
    db
      .select()
      .from(deletionRequests)
      .where(and(eq(deletionRequests.itemType, type), inArray(deletionRequests.itemKey, slice))),
  );
  return rows.sort((a, b) => b.id - a.id);
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Keys of the items that have a deletion request, optionally those containing `text` (case-insensitive),
 * in code-point order (the same on every database, whatever its collation).
 */
export async function requestedKeys(db: Queryable, type: DeletionItemType, text: string | null | undefined): Promise<string[]> {
  const filter: SQL = text ? sql`AND item_key ILIKE ${`%${escapeLike(text)}%`} ESCAPE '\\'` : sql``;
  const rows = await queryRows<{ key: string }>(
    db,
    sql`SELECT DISTINCT item_key AS key FROM deletion_requests WHERE item_type = ${type} ${filter}`,
  );
  return rows.map((r) => r.key).sort();
}

/** Every month in the months table, as ids with their place in time. */
export async function allMonths(db: Queryable) {
  return db.select({ monthId: months.monthId, year: months.year, month: months.month, open: months.open }).from(months);
}

/** Puts the item's DELETION_PENDING rows back to life; answers the months restored. */
export async function restorePending(tx: Queryable, type: DeletionItemType, key: string, username: string): Promise<string[]> {
  const k = KIND[type];
  const rows = await queryRows<{ monthId: string }>(
    tx,
    sql`UPDATE ${k.table} SET deletion_status = NULL, updated_at = now(), updated_by = ${username}, version = version + 1
        WHERE ${k.key} = ${key} AND deletion_status = 'DELETION_PENDING'
        RETURNING month_id AS "monthId"`,
  );
  return rows.map((r) => r.monthId);
}

/** Months at or after the request's start month, as SQL over `t` (the item row) and `r` (the request). */
const coveredBy = sql`(SELECT mo.year * 12 + mo.month FROM months mo WHERE mo.month_id = t.month_id)
                   >= (SELECT rm.year * 12 + rm.month FROM months rm WHERE rm.month_id = r.delete_from_month_id)`;

/** A request none of whose rows is DELETION_PENDING any more has nothing left to restore: it goes inactive. */
export async function deactivateSettledRequests(tx: Queryable, type: DeletionItemType, key: string): Promise<void> {
  const k = KIND[type];
  await tx.execute(
    sql`UPDATE deletion_requests r SET active = false
        WHERE r.item_type = ${type} AND r.item_key = ${key} AND r.active
          AND NOT EXISTS (SELECT 1 FROM ${k.table} t
                          WHERE t.${k.key} = r.item_key AND t.deletion_status = 'DELETION_PENDING' AND ${coveredBy})`,
  );
}

// ───────────── the scheduled steps ─────────────

/**
 * DELETION_PENDING → READY_TO_BE_DELETED for rows covered by an active request older than the grace
 * period. One conditional statement: a second process running it at the same time re-checks each row's
 * status after the first commits and moves nothing twice.
 */
export async function promotePending(db: Queryable, type: DeletionItemType, graceMs: number): Promise<number> {
  const k = KIND[type];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE ${k.table} t SET deletion_status = 'READY_TO_BE_DELETED', updated_at = now()
        WHERE t.deletion_status = 'DELETION_PENDING'
          AND EXISTS (SELECT 1 FROM deletion_requests r
                      WHERE r.item_type = ${type} AND r.item_key = t.${k.key} AND r.active
                        AND r.requested_at <= now() - make_interval(secs => ${graceMs / 1000})
                        AND ${coveredBy})
        RETURNING t.id::text AS id`,
  );
  return rows.length;
}

/** READY_TO_BE_DELETED → DELETION_IN_PROGRESS (conditional, so each row is claimed once). */
export async function claimReady(db: Queryable, type: DeletionItemType): Promise<number> {
  const k = KIND[type];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE ${k.table} SET deletion_status = 'DELETION_IN_PROGRESS', updated_at = now()
        WHERE deletion_status = 'READY_TO_BE_DELETED'
        RETURNING id::text AS id`,
  );
  return rows.length;
}

/** Rows the last step works on: in progress, and (modules) in error, to try again. */
export async function rowsToFinish(db: Queryable, type: DeletionItemType): Promise<number[]> {
  const k = KIND[type];
  const statuses = type === 'module' ? ['DELETION_IN_PROGRESS', 'DELETION_ERROR'] : ['DELETION_IN_PROGRESS'];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id::text AS id FROM ${k.table} WHERE deletion_status IN ${statuses} ORDER BY id`,
  );
  return rows.map((r) => Number(r.id));
}

/** Locks one row for the last step; another process working on it makes this answer nothing. */
export async function lockRowToFinish(
  tx: Queryable,
  type: DeletionItemType,
  id: number,
): Promise<{ key: string; monthId: string; deletionStatus: string } | undefined> {
  const k = KIND[type];
  const rows = await queryRows<{ key: string; monthId: string; deletionStatus: string }>(
    tx,
    sql`SELECT ${k.key} AS key, month_id AS "monthId", deletion_status AS "deletionStatus" FROM ${k.table}
        WHERE id = ${id} AND deletion_status IN ('DELETION_IN_PROGRESS', 'DELETION_ERROR')
        FOR UPDATE SKIP LOCKED`,
  );
  return rows[0];
}

/**
 * The clusters of the month that carry the module (ADDED or in their bin), locked so that no publish
 * can start on them while the module leaves them.
 */
export async function clustersUsingModule(tx: Queryable, moduleName: string, monthId: string) {
  const rows = await queryRows<{ id: string; clusterLabel: string; status: string; deletionStatus: string | null }>(
    tx,
    sql`SELECT c.id::text AS id, c.cluster_label AS "clusterLabel", c.status, c.deletion_status AS "deletionStatus"
        FROM clusters c JOIN cluster_modules cm ON cm.cluster_pk = c.id
        WHERE cm.module_name = ${moduleName} AND cm.month_id = ${monthId}
        ORDER BY c.cluster_label, c.id
        FOR UPDATE OF c`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Takes the module out of those clusters; each cluster's version moves on (edits opened before are stale). */
export async function removeModuleFromClusters(tx: Queryable, moduleName: string, clusterPks: readonly number[]): Promise<void> {
  if (clusterPks.length === 0) return;
  await tx.execute(sql`DELETE FROM cluster_modules WHERE module_name = ${moduleName} AND cluster_pk IN ${[...clusterPks]}`);
  await tx.execute(sql`UPDATE clusters SET version = version + 1, updated_at = now() WHERE id IN ${[...clusterPks]}`);
}

export async function setRowStatus(tx: Queryable, type: DeletionItemType, id: number, status: string): Promise<void> {
  const k = KIND[type];
  await tx.execute(sql`UPDATE ${k.table} SET deletion_status = ${status}, updated_at = now() WHERE id = ${id}`);
}

/** Sets (or clears, with null) the error message of the item's active requests. */
export async function setRequestError(tx: Queryable, type: DeletionItemType, key: string, message: string | null): Promise<void> {
  await tx
    .update(deletionRequests)
    .set({ errorMessage: message })
    .where(and(eq(deletionRequests.itemType, type), eq(deletionRequests.itemKey, key), eq(deletionRequests.active, true)));
}

/** Does the item still have a row in DELETION_ERROR? */
export async function hasErrorRows(tx: Queryable, type: DeletionItemType, key: string): Promise<boolean> {
  const k = KIND[type];
  const rows = await queryRows<{ one: number }>(
    tx,
    sql`SELECT 1 AS one FROM ${k.table} WHERE ${k.key} = ${key} AND deletion_status = 'DELETION_ERROR' LIMIT 1`,
  );
  return rows.length > 0;
}
