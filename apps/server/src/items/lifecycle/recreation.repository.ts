/**
 * Creating an item again where it was deleted (docs/LIFECYCLE.md, docs/DELETION.md): item creation and the
 * copy job both do it, so it sits in the core rather than in the Deletion Area. The two item tables share
 * the columns used here; the table and key column come from constants (never from input).
 */
import { sql } from 'drizzle-orm';
import type { DeletionItemType } from '@bo/shared/deletion';
import { queryRows, type Queryable } from '../../db/client.js';

const KIND = {
  module: { table: sql.raw('modules'), key: sql.raw('module_name') },
  cluster: { table: sql.raw('clusters'), key: sql.raw('cluster_id') },
} as const;

/**
 * Before an item is created again in a month: removes the month's non-live row (the unique key
 * (item, month) leaves no room for a second row) and answers whether the new row must carry
 * `created_after_delete = true` (a deleted row was there, or a deletion request covers the month).
 */
export async function prepareRecreation(tx: Queryable, type: DeletionItemType, key: string, monthId: string): Promise<boolean> {
  const removed = await removeNonLiveRow(tx, type, key, monthId);
  return removed || (await requestCovers(tx, type, key, monthId));
}

/** Removes a row that is not live (so the item can be created again in that month); answers whether one was there. */
async function removeNonLiveRow(tx: Queryable, type: DeletionItemType, key: string, monthId: string): Promise<boolean> {
  const k = KIND[type];
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`DELETE FROM ${k.table} WHERE ${k.key} = ${key} AND month_id = ${monthId} AND deletion_status IS NOT NULL RETURNING id::text AS id`,
  );
  return rows.length > 0;
}

/** Does a deletion request of the item start at or before the month? */
async function requestCovers(db: Queryable, type: DeletionItemType, key: string, monthId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`SELECT 1 AS one FROM deletion_requests r
          JOIN months rm ON rm.month_id = r.delete_from_month_id
          JOIN months mo ON mo.month_id = ${monthId}
        WHERE r.item_type = ${type} AND r.item_key = ${key} AND mo.year * 12 + mo.month >= rm.year * 12 + rm.month
        LIMIT 1`,
  );
  return rows.length > 0;
}
