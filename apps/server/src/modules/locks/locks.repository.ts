import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { queryRows } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { itemKeyString } from '@bo/shared/item-keys';

export type LockItemType = 'module' | 'cluster' | 'macroFamily';

export interface LockKey {
  itemKey: string;
  monthId: string;
}

export interface LockState {
  itemKey: string;
  monthId: string;
  owner: string;
}

/**
 * Takes or renews the lock in one statement: it wins when the item is free, already the caller's
 * (user names compare case-insensitively), or held by a lock nobody renewed for `ttlMinutes`.
 * Concurrent callers race on the primary key, so exactly one of them holds it. Answers the holder.
 */
export async function acquireLock(db: Queryable, itemType: LockItemType, key: LockKey, owner: string, ttlMinutes: number): Promise<string> {
  const rows = await queryRows<{ owner: string }>(
    db,
    sql`INSERT INTO locks (item_type, item_key, month_id, owner, acquired_at, renewed_at)
        VALUES (${itemType}, ${key.itemKey}, ${key.monthId}, ${owner}, now(), now())
        ON CONFLICT (item_type, item_key, month_id) DO UPDATE
          SET owner = EXCLUDED.owner,
              renewed_at = now(),
              acquired_at = CASE WHEN lower(locks.owner) = lower(EXCLUDED.owner) THEN locks.acquired_at ELSE now() END
          WHERE lower(locks.owner) = lower(EXCLUDED.owner)
             OR locks.renewed_at < now() - make_interval(secs => ${ttlMinutes * 60})
        RETURNING owner`,
  );
  if (rows[0]) return rows[0].owner;
  const [held] = await db
    .select({ owner: locks.owner })
    .from(locks)
    .where(and(eq(locks.itemType, itemType), eq(locks.itemKey, key.itemKey), eq(locks.monthId, key.monthId)));
  return held?.owner ?? owner;
}

/** Releases locks; without `forced` only the caller's own. Answers the keys actually released with their former owner. */
export async function releaseLocks(
  db: Queryable,
  itemType: LockItemType,
  keys: readonly LockKey[],
  caller: string,
  forced: boolean,
): Promise<LockState[]> {
  const released: LockState[] = [];
  for (const key of keys) {
    const rows = await db
      .delete(locks)
      .where(
        and(
          eq(locks.itemType, itemType),
          eq(locks.itemKey, key.itemKey),
          eq(locks.monthId, key.monthId),
          forced ? sql`true` : eq(sql`lower(${locks.owner})`, caller.toLowerCase()),
        ),
      )
      .returning({ itemKey: locks.itemKey, monthId: locks.monthId, owner: locks.owner });
    released.push(...rows);
  }
  return released;
}

/** Live (not lapsed) lock holders of the given items, by itemKeyString. */
export async function liveLocks(db: Queryable, itemType: LockItemType, keys: readonly LockKey[], ttlMinutes: number): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (keys.length === 0) return result;
  const rows = await db
    .select({ itemKey: locks.itemKey, monthId: locks.monthId, owner: locks.owner })
    .from(locks)
    .where(
      and(
        eq(locks.itemType, itemType),
        inArray(locks.itemKey, [...new Set(keys.map((k) => k.itemKey))]),
        inArray(locks.monthId, [...new Set(keys.map((k) => k.monthId))]),
        sql`${locks.renewedAt} >= now() - make_interval(secs => ${ttlMinutes * 60})`,
      ),
    );
  for (const r of rows) result.set(itemKeyString(r), r.owner);
  return result;
}

/** Does `user` hold a live lock on the item? */
export async function holdsLock(db: Queryable, itemType: LockItemType, key: LockKey, user: string, ttlMinutes: number): Promise<boolean> {
  const owner = (await liveLocks(db, itemType, [key], ttlMinutes)).get(itemKeyString(key));
  return !!owner && owner.toLowerCase() === user.toLowerCase();
}

/**
 * Releases every lock `owner` holds (compared case-insensitively), of every kind, lapsed ones too: the
 * owner's session ended. Answers how many went, by kind.
 */
export async function releaseLocksOf(db: Queryable, owner: string): Promise<Record<LockItemType, number>> {
  const rows = await db
    .delete(locks)
    .where(eq(sql`lower(${locks.owner})`, owner.toLowerCase()))
    .returning({ itemType: locks.itemType });
  const released: Record<LockItemType, number> = { module: 0, cluster: 0, macroFamily: 0 };
  for (const r of rows) released[r.itemType as LockItemType] += 1;
  return released;
}
