/** The SQL of kept answers (lib/kept-answers.ts): the version of a scope, read from the change log the triggers write, and the log's compaction. */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';

/** The months and brands an answer can contain (null: any). */
export interface Scope {
  months: readonly string[] | null;
  brands: readonly string[] | null;
}

/** One change of the log newer than a snapshot: an item ('module' or 'cluster' and its row id), or a whole scope (nulls). */
export interface ScopeChange {
  type: string | null;
  id: number | null;
}

/** A scope's version as one statement read it. */
export interface ScopeRead {
  /** How many changes of the scope (and of the wider '*' ones) were ever noted, and the highest id among them. */
  version: string;
  /** The snapshot of the statement that read it (pg_current_snapshot()). */
  snapshot?: string;
  /** With `since`, when the version is not its: the changes of the scope the log still holds that its snapshot did not see. */
  changes?: ScopeChange[];
}

/** A column of the log within `values` or '*' (every month, every brand); null: any value. */
function scopeCondition(column: string, values: readonly string[] | null) {
  if (values === null) return sql`TRUE`;
  const col = sql.raw(column);
  return values.length ? sql`(${col} = '*' OR ${col} IN ${[...new Set(values)]})` : sql`${col} = '*'`;
}

/**
 * The version of what `scope` covers: how many changes of its scopes (and of the wider '*' ones) were ever noted, and
 * the highest id among them, as text. It changes with every commit that changed something the scope covers. Read with
 * the statement's snapshot and, given an earlier read (`since`) whose version is not this one, the changes its snapshot
 * did not see, in the same statement (so the same snapshot).
 */
export async function scopeVersion(db: Db, scope: Scope, since?: { version: string; snapshot: string }): Promise<ScopeRead> {
  const where = sql`${scopeCondition('month_id', scope.months)} AND ${scopeCondition('brand_code', scope.brands)}`;
  // Read only when the version moved (a kept answer given again, the most frequent call, does not need them).
  const changes =
    since === undefined
      ? sql`NULL::json`
      : sql`CASE WHEN v.version <> ${since.version} THEN
              (SELECT COALESCE(json_agg(json_build_array(item_type, item_id)), '[]'::json) FROM search_changes
                WHERE ${where} AND NOT pg_visible_in_snapshot(xid, ${since.snapshot}::pg_snapshot)) END`;
  const [row] = await queryRows<{ version: string; snapshot: string; changes: [string | null, number | string | null][] | null }>(
    db,
    sql`SELECT v.version, pg_current_snapshot()::text AS snapshot, ${changes} AS changes
          FROM (SELECT COALESCE(sum(n), 0)::text || ':' || COALESCE(max(last_id), 0)::text AS version
                  FROM (SELECT n, last_id FROM search_change_totals WHERE ${where}
                        UNION ALL SELECT 1, id FROM search_changes WHERE ${where}) s) v`,
  );
  return {
    version: row!.version,
    snapshot: row!.snapshot,
    ...(row!.changes ? { changes: row!.changes.map(([type, id]) => ({ type, id: id === null ? null : Number(id) })) } : {}),
  };
}

/** Folds the change log's rows older than `keepSeconds` (0: all) into its totals (versions unchanged); answers how many rows it moved. */
export async function compactSearchChanges(db: Db, keepSeconds = 0): Promise<number> {
  const [row] = await queryRows<{ moved: string | number }>(db, sql`SELECT compact_search_changes(${keepSeconds}::int) AS moved`);
  return Number(row!.moved);
}
