/** The SQL of kept answers (lib/kept-answers.ts): the version of a scope, read from the change log the triggers write, and the log's compaction. */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';

/** The months and brands an answer can contain (null: any). */
export interface Scope {
  months: readonly string[] | null;
  brands: readonly string[] | null;
}

/** A column of the log within `values` or '*' (every month, every brand); null: any value. */
function scopeCondition(column: string, values: readonly string[] | null) {
  if (values === null) return sql`TRUE`;
  const col = sql.raw(column);
  return values.length ? sql`(${col} = '*' OR ${col} IN ${[...new Set(values)]})` : sql`${col} = '*'`;
}

/**
 * The version of what `scope` covers: how many changes of its scopes (and of the wider '*' ones) were ever noted, and
 * the highest id among them, as text. It changes with every commit that changed something the scope covers.
 */
export async function scopeVersion(db: Db, scope: Scope): Promise<string> {
  const where = sql`${scopeCondition('month_id', scope.months)} AND ${scopeCondition('brand_code', scope.brands)}`;
  const [row] = await queryRows<{ version: string }>(
    db,
    sql`SELECT COALESCE(sum(n), 0)::text || ':' || COALESCE(max(last_id), 0)::text AS version
          FROM (SELECT n, last_id FROM search_change_totals WHERE ${where}
                UNION ALL SELECT 1, id FROM search_changes WHERE ${where}) s`,
  );
  return row!.version;
}

/** Folds the change log into its totals (versions unchanged); answers how many rows it moved. */
export async function compactSearchChanges(db: Db): Promise<number> {
  const [row] = await queryRows<{ moved: string | number }>(db, sql`SELECT compact_search_changes() AS moved`);
  return Number(row!.moved);
}
