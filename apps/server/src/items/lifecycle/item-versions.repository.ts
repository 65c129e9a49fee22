/**
 * The SQL of item versions (docs/versions.md). Versions are written by the database itself: the
 * `record_item_version` constraint trigger (migration 0009) snapshots a module or cluster at the commit of
 * every transaction that bumps its `version` or publishes it. A write path only names its action, once per
 * transaction, with `recordVersionsAs`; one that forgets is still recorded (as 'change' by the row's
 * `updated_by`).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ClusterVersionContent, ModuleVersionContent, VersionAction } from '@bo/shared/item-versions';
import { queryRows, type Queryable } from '../../db/client.js';
import { skuRule } from './sku-rules.repository.js';

export type VersionedType = 'module' | 'cluster';
export type VersionContent<T extends VersionedType> = T extends 'module' ? ModuleVersionContent : ClusterVersionContent;

/**
 * Names the action (and user, and for a revert the version restored) of the versions this transaction
 * records. Call it inside the transaction, before or after the writes: the settings last until it ends.
 */
export async function recordVersionsAs(tx: Queryable, action: VersionAction, username: string, revertOf?: number | null): Promise<void> {
  await tx.execute(sql`SELECT ${versionNamingColumns({ action, username, revertOf })}`);
}

/** The action, user and (for a revert) version restored of the versions a transaction records (`recordVersionsAs`). */
export interface VersionNaming {
  action: VersionAction;
  username: string;
  revertOf?: number | null | undefined;
}

/**
 * The select items that name the versions this transaction records, as `recordVersionsAs` does, for a statement of the
 * transaction that reads something else (one round trip fewer: docs/performance.md "Save and module open: CPU per call").
 */
export const versionNamingColumns = ({ action, username, revertOf }: VersionNaming): SQL =>
  sql`set_config('bo.version_action', ${action}, true), set_config('bo.version_user', ${username}, true),
    set_config('bo.version_revert_of', ${revertOf == null ? '' : String(revertOf)}, true)`;

/**
 * For a bulk writer (the release loader): the per-row triggers stay quiet for the rest of the transaction,
 * and `recordWrittenVersions`, called at its end, records every item it wrote whose content changed, set-wise.
 */
export async function recordVersionsInBulk(tx: Queryable, action: VersionAction, username: string): Promise<void> {
  await recordVersionsAs(tx, action, username);
  await tx.execute(sql`SELECT set_config('bo.version_bulk', 'on', true)`);
}

/** The end of a bulk write: a version of every item this transaction wrote (updated_at = now()) whose content changed. */
export async function recordWrittenVersions(tx: Queryable): Promise<number> {
  const [row] = await queryRows<{ n: number }>(tx, sql`SELECT record_written_versions() AS n`);
  return Number(row?.n ?? 0);
}

export interface VersionRow<C> {
  version: number;
  action: VersionAction;
  username: string;
  createdAt: string;
  content: C;
  revertOf: number | null;
}

const SELECT_VERSION = sql`SELECT version, action, username, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  content, revert_of AS "revertOf" FROM item_versions`;
const itemIs = (type: VersionedType, itemKey: string, monthId: string) => sql`item_type = ${type} AND item_key = ${itemKey} AND month_id = ${monthId}`;

export async function countVersions(db: Queryable, type: VersionedType, itemKey: string, monthId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM item_versions WHERE ${itemIs(type, itemKey, monthId)}`);
  return Number(row?.n ?? 0);
}

/** Versions newest first, from `offset`, at most `limit` (the page plus the one before it, for its summary). */
export async function versionsPage<T extends VersionedType>(db: Queryable, type: T, itemKey: string, monthId: string, offset: number, limit: number) {
  return queryRows<VersionRow<VersionContent<T>>>(
    db,
    sql`${SELECT_VERSION} WHERE ${itemIs(type, itemKey, monthId)} ORDER BY version DESC LIMIT ${limit} OFFSET ${offset}`,
  );
}

/** Version n and the one before it (newest first): [n, n-1] or [n] or []. */
export async function versionAndPrevious<T extends VersionedType>(db: Queryable, type: T, itemKey: string, monthId: string, n: number) {
  return queryRows<VersionRow<VersionContent<T>>>(
    db,
    sql`${SELECT_VERSION} WHERE ${itemIs(type, itemKey, monthId)} AND version <= ${n} ORDER BY version DESC LIMIT 2`,
  );
}

export async function versionExists(db: Queryable, type: VersionedType, itemKey: string, monthId: string, n: number): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(db, sql`SELECT 1 AS one FROM item_versions WHERE ${itemIs(type, itemKey, monthId)} AND version = ${n}`);
  return rows.length > 0;
}

/** The newest 'publish' version of an item-month, if any. */
export async function lastPublishedVersion<T extends VersionedType>(db: Queryable, type: T, itemKey: string, monthId: string) {
  const [row] = await queryRows<VersionRow<VersionContent<T>>>(
    db,
    sql`${SELECT_VERSION} WHERE ${itemIs(type, itemKey, monthId)} AND action = 'publish' ORDER BY version DESC LIMIT 1`,
  );
  return row;
}

/** The item's content now, in the versions' compact form (the same SQL function the trigger records with). */
export async function currentContent<T extends VersionedType>(db: Queryable, type: T, id: number): Promise<VersionContent<T>> {
  const [row] = await queryRows<{ content: VersionContent<T> }>(db, sql`SELECT item_version_content(${type}, ${id}) AS content`);
  return row!.content;
}

/** Of these SKUs: those that no longer exist (or are removed) and those now discontinued (sku-rules.repository.ts skuRule). */
export async function skuFlags(db: Queryable, upcs: readonly string[]): Promise<{ missing: string[]; discontinued: string[] }> {
  if (upcs.length === 0) return { missing: [], discontinued: [] };
  const rows = await queryRows<{ upc: string; state: 'missing' | 'disco' }>(
    db,
    sql`SELECT w.upc, CASE WHEN s.upc IS NULL OR ${skuRule('removed')} THEN 'missing' ELSE 'disco' END AS state
          FROM unnest(${sql.param([...upcs])}::text[]) AS w(upc) LEFT JOIN skus s ON s.upc = w.upc
         WHERE s.upc IS NULL OR ${skuRule('removed')} OR ${skuRule('disco')}`,
  );
  const order = new Map(upcs.map((u, i) => [u, i]));
  const byOrder = (a: string, b: string) => order.get(a)! - order.get(b)!;
  return {
    missing: rows.filter((r) => r.state === 'missing').map((r) => r.upc).sort(byOrder),
    discontinued: rows.filter((r) => r.state === 'disco').map((r) => r.upc).sort(byOrder),
  };
}

/** Of these stores, those that no longer exist. */
export async function missingStores(db: Queryable, storeJdas: readonly string[]): Promise<string[]> {
  if (storeJdas.length === 0) return [];
  const rows = await queryRows<{ storeJda: string }>(
    db,
    sql`SELECT w.s AS "storeJda" FROM unnest(${sql.param([...storeJdas])}::text[]) AS w(s)
         WHERE NOT EXISTS (SELECT 1 FROM stores st WHERE st.store_jda = w.s) ORDER BY w.s`,
  );
  return rows.map((r) => r.storeJda);
}

/** Of these modules, those not live in the month. */
export async function missingModules(db: Queryable, monthId: string, moduleNames: readonly string[]): Promise<string[]> {
  if (moduleNames.length === 0) return [];
  const rows = await queryRows<{ moduleName: string }>(
    db,
    sql`SELECT w.n AS "moduleName" FROM unnest(${sql.param([...moduleNames])}::text[]) AS w(n)
         WHERE NOT EXISTS (SELECT 1 FROM modules m WHERE m.module_name = w.n AND m.month_id = ${monthId} AND m.deletion_status IS NULL) ORDER BY w.n`,
  );
  return rows.map((r) => r.moduleName);
}

/** The distinct active (not in the bin) SKUs of these live modules of a month. */
export async function activeSkusOfModules(db: Queryable, monthId: string, moduleNames: readonly string[]): Promise<Set<string>> {
  if (moduleNames.length === 0) return new Set();
  const rows = await queryRows<{ upc: string }>(
    db,
    sql`SELECT DISTINCT k.upc FROM modules m JOIN module_skus k ON k.module_id = m.id
         WHERE m.month_id = ${monthId} AND m.module_name = ANY(${sql.param([...moduleNames])}::text[]) AND m.deletion_status IS NULL AND k.status <> 'REMOVED'`,
  );
  return new Set(rows.map((r) => r.upc));
}
