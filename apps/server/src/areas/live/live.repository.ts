/**
 * The SQL of live events (docs/LIVE.md): what a batch of notifications reads once (item states, viewers, ended jobs),
 * the tabs and their presence, lease renewals and the sweeper's deletions.
 */
import { sql } from 'drizzle-orm';
import type { LiveItemKind, PresenceMode } from '@bo/shared/live-events';
import { queryRows, type Queryable } from '../../db/client.js';
import { liveLock } from '../../lib/locks.repository.js';

export interface ItemRef {
  kind: LiveItemKind;
  name: string;
  monthId: string;
}

/** What an `item` event says of one item-month, with the row id and brand its scope is read from. */
export interface ItemState extends ItemRef {
  id: number;
  brandCode: string;
  status: string;
  /** The item's optimistic version (bumped by every write). */
  version: number;
  lockedBy: string | null;
  savedAt: string | null;
  /** Who saved the last version (null: no version yet). */
  savedBy: string | null;
}

const ITEM_TABLES = {
  module: { table: sql.raw('modules'), key: sql.raw('module_name') },
  cluster: { table: sql.raw('clusters'), key: sql.raw('cluster_id') },
} as const;

const isoText = (column: ReturnType<typeof sql.raw>) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The state of item-months of one kind, deleted ones too (their deletion state is their status): the live lock holder,
 * the time of the last saved version and who saved it. Item-months without a row are left out (nobody can be shown them).
 */
export async function itemStates(db: Queryable, kind: LiveItemKind, refs: readonly ItemRef[], ttlMinutes: number): Promise<ItemState[]> {
  if (refs.length === 0) return [];
  const { table, key } = ITEM_TABLES[kind];
  const rows = await queryRows<{
    id: string | number;
    name: string;
    month_id: string;
    brand_code: string;
    status: string;
    version: number;
    locked_by: string | null;
    saved_at: string | null;
    saved_by: string | null;
  }>(
    db,
    sql`SELECT i.id, i.${key} AS name, i.month_id, i.brand_code, COALESCE(i.deletion_status, i.status) AS status, i.version, lk.owner AS locked_by,
               lv.saved_at, lv.saved_by
          FROM unnest(${sql.param(refs.map((r) => r.name))}::text[], ${sql.param(refs.map((r) => r.monthId))}::text[]) AS w(name, month_id)
          JOIN ${table} i ON i.${key} = w.name AND i.month_id = w.month_id
          LEFT JOIN LATERAL (SELECT ${isoText(sql.raw('v.created_at'))} AS saved_at, v.username AS saved_by FROM item_versions v
                              WHERE v.item_type = ${kind} AND v.item_key = i.${key} AND v.month_id = i.month_id ORDER BY v.version DESC LIMIT 1) lv ON true
          LEFT JOIN locks lk ON lk.item_type = ${kind} AND lk.item_key = i.${key} AND lk.month_id = i.month_id AND ${liveLock(sql.raw('lk'), ttlMinutes)}`,
  );
  return rows.map((r) => ({
    kind,
    id: Number(r.id),
    name: r.name,
    monthId: r.month_id,
    brandCode: r.brand_code,
    status: r.status,
    version: Number(r.version),
    lockedBy: r.locked_by,
    savedAt: r.saved_at,
    savedBy: r.saved_by,
  }));
}

export interface ViewerRow extends ItemRef {
  username: string;
  firstName: string;
  lastName: string;
  mode: PresenceMode;
  since: string;
}

/**
 * Who has item-months open (every item-month someone has open when `refs` is null): one row per user and item, the
 * earliest `since` of their tabs, 'editing' when any of their tabs edits it.
 */
export async function viewersOf(db: Queryable, refs: readonly ItemRef[] | null): Promise<ViewerRow[]> {
  if (refs !== null && refs.length === 0) return [];
  const only =
    refs === null
      ? sql``
      : sql`JOIN unnest(${sql.param(refs.map((r) => r.kind))}::text[], ${sql.param(refs.map((r) => r.name))}::text[], ${sql.param(refs.map((r) => r.monthId))}::text[])
              AS w(item_type, item_key, month_id) ON w.item_type = p.item_type AND w.item_key = p.item_key AND w.month_id = p.month_id`;
  const rows = await queryRows<{ item_type: LiveItemKind; item_key: string; month_id: string; username: string; first_name: string | null; last_name: string | null; mode: PresenceMode; since: string }>(
    db,
    sql`SELECT p.item_type, p.item_key, p.month_id, min(p.username) AS username, min(u.first_name) AS first_name, min(u.last_name) AS last_name,
               CASE WHEN bool_or(p.mode = 'editing') THEN 'editing' ELSE 'viewing' END AS mode,
               ${isoText(sql.raw('min(p.since)'))} AS since
          FROM presence p ${only}
          LEFT JOIN users u ON lower(u.username) = lower(p.username)
         GROUP BY p.item_type, p.item_key, p.month_id, lower(p.username)
         ORDER BY p.item_type, p.item_key, p.month_id, min(p.since), lower(p.username)`,
  );
  return rows.map((r) => ({
    kind: r.item_type,
    name: r.item_key,
    monthId: r.month_id,
    username: r.username,
    firstName: r.first_name ?? '',
    lastName: r.last_name ?? '',
    mode: r.mode,
    since: r.since,
  }));
}

export interface EndedJob {
  id: number;
  kind: string;
  status: 'DONE' | 'FAILED';
  createdBy: string;
  payload: unknown;
}

/** Jobs that ended, by id (a job notified as ended and read again later is still DONE or FAILED). */
export async function endedJobs(db: Queryable, ids: readonly number[]): Promise<EndedJob[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string | number; kind: string; status: 'DONE' | 'FAILED'; created_by: string; payload: unknown }>(
    db,
    sql`SELECT id, kind, status, created_by, payload FROM jobs WHERE id = ANY(${sql.param(ids.map(String))}::bigint[]) AND status IN ('DONE', 'FAILED') ORDER BY id`,
  );
  return rows.map((r) => ({ id: Number(r.id), kind: r.kind, status: r.status, createdBy: r.created_by, payload: r.payload }));
}

/**
 * Claims a tab for `username` (or renews it when already theirs): false when the tab belongs to another user, who
 * keeps it. One statement, so two users racing for one new tab id cannot both have it.
 */
export async function claimTab(db: Queryable, tabId: string, username: string): Promise<boolean> {
  return (await claimTabRow(db, tabId, username, false)) !== null;
}

/**
 * Claims a tab for a stream opening (as claimTab) and notes that its newest stream opened now (`live_tabs.opened_at`):
 * answers that time (the database's, as text), or null when the tab is another user's.
 */
export async function claimStreamTab(db: Queryable, tabId: string, username: string): Promise<string | null> {
  return claimTabRow(db, tabId, username, true);
}

async function claimTabRow(db: Queryable, tabId: string, username: string, stream: boolean): Promise<string | null> {
  const opened = stream ? sql`now()` : sql`t.opened_at`;
  const rows = await queryRows<{ opened_at: string }>(
    db,
    sql`INSERT INTO live_tabs AS t (tab_id, username) VALUES (${tabId}::uuid, ${username})
        ON CONFLICT (tab_id) DO UPDATE SET seen_at = now(), opened_at = ${opened} WHERE lower(t.username) = lower(EXCLUDED.username)
        RETURNING t.opened_at::text AS opened_at`,
  );
  return rows[0]?.opened_at ?? null;
}

/** The owner of a tab, or null when unknown. */
export async function tabOwner(db: Queryable, tabId: string): Promise<string | null> {
  const rows = await queryRows<{ username: string }>(db, sql`SELECT username FROM live_tabs WHERE tab_id = ${tabId}::uuid`);
  return rows[0]?.username ?? null;
}

export interface PresenceItem extends ItemRef {
  mode: PresenceMode;
}

/**
 * Replaces what a tab has open: rows of items no longer open go, new ones come (`since` now), kept ones are renewed
 * (`since` unchanged, the mode as given). Two statements; the caller holds them in one transaction.
 */
export async function replacePresence(db: Queryable, tabId: string, username: string, items: readonly PresenceItem[]): Promise<void> {
  const types = sql.param(items.map((i) => i.kind));
  const keys = sql.param(items.map((i) => i.name));
  const months = sql.param(items.map((i) => i.monthId));
  await db.execute(
    sql`DELETE FROM presence p WHERE p.tab_id = ${tabId}::uuid
          AND NOT EXISTS (SELECT 1 FROM unnest(${types}::text[], ${keys}::text[], ${months}::text[]) AS w(item_type, item_key, month_id)
                           WHERE w.item_type = p.item_type AND w.item_key = p.item_key AND w.month_id = p.month_id)`,
  );
  if (items.length === 0) return;
  await db.execute(
    sql`INSERT INTO presence AS p (tab_id, username, item_type, item_key, month_id, mode)
        SELECT ${tabId}::uuid, ${username}, w.item_type, w.item_key, w.month_id, w.mode
          FROM unnest(${types}::text[], ${keys}::text[], ${months}::text[], ${sql.param(items.map((i) => i.mode))}::text[]) AS w(item_type, item_key, month_id, mode)
         ORDER BY w.item_type, w.item_key, w.month_id
        ON CONFLICT (tab_id, item_type, item_key, month_id) DO UPDATE SET mode = EXCLUDED.mode, seen_at = now()`,
  );
}

/**
 * Renews the caller's live locks of the items a page edits and leases them (`lease_seconds`): from now on each lives
 * `leaseSeconds` after its last renewal. A lock that lapsed already is not brought back. Answers how many were renewed.
 */
export async function renewLeases(db: Queryable, username: string, items: readonly ItemRef[], leaseSeconds: number, ttlMinutes: number): Promise<number> {
  if (items.length === 0) return 0;
  const rows = await queryRows<{ item_key: string }>(
    db,
    sql`UPDATE locks l SET renewed_at = now(), lease_seconds = ${leaseSeconds}
          FROM unnest(${sql.param(items.map((i) => i.kind))}::text[], ${sql.param(items.map((i) => i.name))}::text[], ${sql.param(items.map((i) => i.monthId))}::text[])
               AS w(item_type, item_key, month_id)
         WHERE l.item_type = w.item_type AND l.item_key = w.item_key AND l.month_id = w.month_id
           AND lower(l.owner) = lower(${username}) AND ${liveLock(sql.raw('l'), ttlMinutes)}
        RETURNING l.item_key`,
  );
  return rows.length;
}

/**
 * A tab's stream opened at `openedAt` (claimStreamTab) closed: what the tab has open is forgotten, unless a newer stream
 * of the tab opened meanwhile, in any process (a reconnection that reached another worker, whose page already said
 * again what it has open, while this process noticed the old connection's end only now). The tab stays theirs.
 */
export async function removeTabPresence(db: Queryable, tabId: string, openedAt: string): Promise<void> {
  await db.execute(
    sql`DELETE FROM presence WHERE tab_id = ${tabId}::uuid
          AND NOT EXISTS (SELECT 1 FROM live_tabs t WHERE t.tab_id = ${tabId}::uuid AND t.opened_at > ${openedAt}::timestamptz)`,
  );
}

/** A tab closed (DELETE /api/presence/:tabId): it and what it had open go. */
export async function removeTab(db: Queryable, tabId: string): Promise<void> {
  await db.execute(sql`DELETE FROM live_tabs WHERE tab_id = ${tabId}::uuid`);
}

/**
 * Tabs whose stream is open here stay theirs (no event: seen_at only). What they have open is not renewed here: only
 * the page's PUT renews it, so the presence of a peer that vanished without closing its connection (a network cut: the
 * server may write into it for minutes before TCP gives up) goes after PRESENCE_TTL_SECONDS all the same.
 */
export async function touchTabs(db: Queryable, tabIds: readonly string[]): Promise<void> {
  if (tabIds.length === 0) return;
  await db.execute(sql`UPDATE live_tabs SET seen_at = now() WHERE tab_id = ANY(${sql.param([...tabIds])}::uuid[])`);
}

/**
 * The stream's share of "a lock lives while the page that holds it lives": the leased locks of the items that tabs whose
 * stream is open here edit (their presence, as their last PUT said, `editing`) are renewed, holder and lease unchanged
 * (a renewal notifies nothing). Only leased, still live locks of the presence row's own user: a lapsed lock is never
 * brought back, an unleased one keeps the TTL rule. Presence not renewed by a PUT for PRESENCE_TTL_SECONDS is gone
 * before this runs (the sweep's order), so a tab that stopped PUTting stops renewing too. Answers how many were renewed.
 */
export async function renewStreamLeases(db: Queryable, tabIds: readonly string[]): Promise<number> {
  if (tabIds.length === 0) return 0;
  const rows = await queryRows<{ item_key: string }>(
    db,
    sql`UPDATE locks l SET renewed_at = now()
          FROM presence p
         WHERE p.tab_id = ANY(${sql.param([...tabIds])}::uuid[]) AND p.mode = 'editing'
           AND l.item_type = p.item_type AND l.item_key = p.item_key AND l.month_id = p.month_id
           AND lower(l.owner) = lower(p.username)
           -- leased: its lease alone decides whether it is live (the TTL given to liveLock plays no part)
           AND l.lease_seconds IS NOT NULL AND ${liveLock(sql.raw('l'), 0)}
        RETURNING l.item_key`,
  );
  return rows.length;
}

/**
 * Deletes leased locks whose lease ran out, in a transaction that names the release 'lapsed' (the lock trigger then
 * tells their holders: `lockLost`). Idempotent, and safe with several processes: a lock renewed meanwhile is kept
 * (the DELETE re-reads a row a renewal changed). Answers how many went.
 */
export async function deleteLapsedLeases(db: Queryable): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('bo.lock_release', 'lapsed', true)`);
    const rows = await queryRows<{ item_key: string }>(
      tx,
      sql`DELETE FROM locks WHERE lease_seconds IS NOT NULL AND renewed_at < now() - make_interval(secs => lease_seconds) RETURNING item_key`,
    );
    return rows.length;
  });
}

/** Presence not renewed for `ttlSeconds`, and tabs not seen for that long (with what they had open), go. */
export async function deleteStalePresence(db: Queryable, ttlSeconds: number): Promise<void> {
  await db.execute(sql`DELETE FROM presence WHERE seen_at < now() - make_interval(secs => ${ttlSeconds})`);
  await db.execute(sql`DELETE FROM live_tabs WHERE seen_at < now() - make_interval(secs => ${ttlSeconds})`);
}
