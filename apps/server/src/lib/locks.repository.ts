import { and, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { queryRows } from '../db/client.js';
import { locks } from '../db/schema.js';
import { itemKeyString } from '@bo/shared/item-keys';

export type LockItemType = 'module' | 'cluster' | 'macroFamily';

interface LockKey {
  itemKey: string;
  monthId: string;
}

/**
 * How long a lock row (`alias`) lives after its last renewal, in seconds: its lease when an open page renews it
 * (`lease_seconds`, LOCK_LEASE_SECONDS, set by PUT /api/presence; docs/LIVE.md "Locks follow people"), else the
 * lock's time to live (`LOCK_TTL_MINUTES`, contract §6). Both hold: pages lease, every other holder keeps the TTL.
 */
const lockLifeSeconds = (alias: SQL, ttlMinutes: LockTtl): SQL =>
  typeof ttlMinutes === 'number' ? sql`COALESCE(${alias}.lease_seconds, ${ttlMinutes * 60})` : sql`COALESCE(${alias}.lease_seconds, ${ttlMinutes}::integer * 60)`;

/**
 * A lock's time to live in minutes (`LOCK_TTL_MINUTES`): the number, or a placeholder its value is given to at each
 * run of a statement built once (`preparedOnce`), so that a process's servers of other settings never share a stale one.
 */
export type LockTtl = number | Placeholder;

/** A lock row (`alias`) is live: renewed within its lease, or within the lock's time to live when it has none. */
export const liveLock = (alias: SQL, ttlMinutes: LockTtl): SQL =>
  sql`${alias}.renewed_at >= now() - make_interval(secs => ${lockLifeSeconds(alias, ttlMinutes)})`;

/** Seconds until a live lock row (`alias`) stops being live with time alone (NULL when `alias` is NULL). */
export const lockSecondsLeft = (alias: SQL, ttlMinutes: LockTtl): SQL =>
  sql`extract(epoch FROM ${alias}.renewed_at - now())::float8 + ${lockLifeSeconds(alias, ttlMinutes)}::float8`;

/** In SQL: the owner of the live lock of one item-month (NULL when nobody holds it); `itemKey` and `monthId` are SQL expressions. */
export const liveLockOwner = (itemType: LockItemType, itemKey: SQL, monthId: SQL, ttlMinutes: LockTtl): SQL =>
  sql`(SELECT lk.owner FROM locks lk WHERE lk.item_type = ${itemType} AND lk.item_key = ${itemKey} AND lk.month_id = ${monthId} AND ${liveLock(sql.raw('lk'), ttlMinutes)})`;

export interface LockState {
  itemKey: string;
  monthId: string;
  owner: string;
}

/**
 * Takes or renews the locks of `keys` in one statement: each is won when the item is free, already the
 * caller's (user names compare case-insensitively), or held by a lock nobody renewed for `ttlMinutes`.
 * Concurrent callers race on the primary key, so exactly one of them holds each; the rows are written in
 * key order, so two callers wanting overlapping keys wait for each other rather than deadlock. Answers the
 * holder of each key (by itemKeyString), read again for the keys not won (a new snapshot: a rival's
 * lock committed meanwhile is seen).
 */
export async function acquireLocks(db: Queryable, itemType: LockItemType, keys: readonly LockKey[], owner: string, ttlMinutes: number): Promise<Map<string, string>> {
  const holders = new Map<string, string>();
  if (keys.length === 0) return holders;
  const sorted = [...new Map(keys.map((k) => [itemKeyString(k), k])).values()].sort((a, b) =>
    a.itemKey < b.itemKey ? -1 : a.itemKey > b.itemKey ? 1 : a.monthId < b.monthId ? -1 : a.monthId > b.monthId ? 1 : 0,
  );
  const won = await queryRows<{ item_key: string; month_id: string; owner: string }>(
    db,
    sql`INSERT INTO locks (item_type, item_key, month_id, owner, acquired_at, renewed_at)
        SELECT ${itemType}, w.item_key, w.month_id, ${owner}, now(), now()
          FROM unnest(${sql.param(sorted.map((k) => k.itemKey))}::text[], ${sql.param(sorted.map((k) => k.monthId))}::text[]) WITH ORDINALITY AS w(item_key, month_id, n)
         ORDER BY w.n
        ON CONFLICT (item_type, item_key, month_id) DO UPDATE
          SET owner = EXCLUDED.owner,
              renewed_at = now(),
              -- The holder's lease goes on (its page renews it); a new holder starts under the time to live.
              lease_seconds = CASE WHEN lower(locks.owner) = lower(EXCLUDED.owner) THEN locks.lease_seconds END,
              acquired_at = CASE WHEN lower(locks.owner) = lower(EXCLUDED.owner) THEN locks.acquired_at ELSE now() END
          WHERE lower(locks.owner) = lower(EXCLUDED.owner)
             OR NOT ${liveLock(sql.raw('locks'), ttlMinutes)}
        RETURNING item_key, month_id, owner`,
  );
  for (const r of won) holders.set(itemKeyString({ itemKey: r.item_key, monthId: r.month_id }), r.owner);
  const lost = sorted.filter((k) => !holders.has(itemKeyString(k)));
  if (lost.length > 0) {
    const held = await db
      .select({ itemKey: locks.itemKey, monthId: locks.monthId, owner: locks.owner })
      .from(locks)
      .where(and(eq(locks.itemType, itemType), inArray(locks.itemKey, [...new Set(lost.map((k) => k.itemKey))]), inArray(locks.monthId, [...new Set(lost.map((k) => k.monthId))])));
    const heldBy = new Map(held.map((h) => [itemKeyString(h), h.owner]));
    // A lock gone between the two statements (released meanwhile) is nobody's: the caller is told it holds it, as before.
    for (const k of lost) holders.set(itemKeyString(k), heldBy.get(itemKeyString(k)) ?? owner);
  }
  return holders;
}

/** acquireLocks for one item: its holder. */
export async function acquireLock(db: Queryable, itemType: LockItemType, key: LockKey, owner: string, ttlMinutes: number): Promise<string> {
  return (await acquireLocks(db, itemType, [key], owner, ttlMinutes)).get(itemKeyString(key))!;
}

/**
 * Names why the transaction's lock deletions happen, for the live events' lock trigger (migration 0016): a forced unlock
 * by `by` tells each other holder `lockLost` reason 'forced'. Local to the transaction.
 */
export async function nameForcedRelease(tx: Queryable, by: string): Promise<void> {
  await tx.execute(sql`SELECT set_config('bo.lock_release', ${`forced:${by}`}, true)`);
}

/** Releases locks; without `forced` only the caller's own. Answers the keys actually released with their former owner. */
export async function releaseLocks(
  db: Queryable,
  itemType: LockItemType,
  keys: readonly LockKey[],
  caller: string,
  forced: boolean,
): Promise<LockState[]> {
  if (keys.length === 0) return [];
  // One statement for every key (the unlock of a page of 30 modules was 30 round trips).
  const rows = await queryRows<{ item_key: string; month_id: string; owner: string }>(
    db,
    sql`DELETE FROM locks l
         USING unnest(${sql.param(keys.map((k) => k.itemKey))}::text[], ${sql.param(keys.map((k) => k.monthId))}::text[]) AS w(item_key, month_id)
         WHERE l.item_type = ${itemType} AND l.item_key = w.item_key AND l.month_id = w.month_id
           ${forced ? sql`` : sql`AND lower(l.owner) = ${caller.toLowerCase()}`}
        RETURNING l.item_key, l.month_id, l.owner`,
  );
  // In the order of the keys asked, as before.
  const byKey = new Map(rows.map((r) => [itemKeyString({ itemKey: r.item_key, monthId: r.month_id }), { itemKey: r.item_key, monthId: r.month_id, owner: r.owner }]));
  return [...new Set(keys.map(itemKeyString))].flatMap((k) => (byKey.has(k) ? [byKey.get(k)!] : []));
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
        liveLock(sql.raw('locks'), ttlMinutes),
      ),
    );
  for (const r of rows) result.set(itemKeyString(r), r.owner);
  return result;
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
