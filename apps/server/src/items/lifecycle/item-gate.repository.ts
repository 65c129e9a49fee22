/** The SQL of items' gates (item-preconditions.ts itemGates): each one's month state and who holds its live lock, in one statement. */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../db/client.js';
import { liveLockOwner, type LockItemType } from '../../lib/locks.repository.js';
import { MONTH_STATE_COLUMNS, monthStateJoin, type MonthState } from './months.repository.js';

/** The month state of each key's month and the owner of the item's live lock (null: none), in the order of `keys`. */
export async function itemGateRows(
  db: Queryable,
  itemType: LockItemType,
  keys: readonly { itemKey: string; monthId: string }[],
  ttlMinutes: number,
): Promise<(MonthState & { lockOwner: string | null })[]> {
  if (keys.length === 0) return [];
  const rows = await queryRows<MonthState & { lockOwner: string | null; ord: number }>(
    db,
    sql`SELECT v.ord, ${MONTH_STATE_COLUMNS}, ${liveLockOwner(itemType, sql.raw('v.item_key'), sql.raw('v.id'), ttlMinutes)} AS "lockOwner"
          FROM unnest(${sql.param(keys.map((k) => k.itemKey))}::text[], ${sql.param(keys.map((k) => k.monthId))}::text[]) WITH ORDINALITY AS v(item_key, id, ord)
          ${monthStateJoin(sql.raw('v.id'))}
          ORDER BY v.ord`,
  );
  return rows.map(({ ord: _ord, ...gate }) => gate);
}
