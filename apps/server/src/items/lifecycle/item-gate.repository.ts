/** The SQL of an item's gate (item-preconditions.ts gateOf): its month's state and who holds its live lock, in one statement. */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../db/client.js';
import { liveLockOwner, type LockItemType } from '../../lib/locks.repository.js';
import { MONTH_STATE_COLUMNS, monthStateJoin, type MonthState } from './months.repository.js';

/** The month state of `key`'s month and the owner of the item's live lock (null: none). */
export async function itemGateRow(
  db: Queryable,
  itemType: LockItemType,
  key: { itemKey: string; monthId: string },
  ttlMinutes: number,
): Promise<MonthState & { lockOwner: string | null }> {
  const [found] = await queryRows<MonthState & { lockOwner: string | null }>(
    db,
    sql`SELECT ${MONTH_STATE_COLUMNS}, ${liveLockOwner(itemType, sql`${key.itemKey}`, sql`${key.monthId}`, ttlMinutes)} AS "lockOwner"
          FROM (SELECT ${key.monthId}::text AS id) v ${monthStateJoin(sql.raw('v.id'))}`,
  );
  return found!;
}
