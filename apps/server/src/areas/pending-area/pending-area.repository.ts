/**
 * The SQL of the Pending Area and of its home bell: one definition of a pending item (`pendingWhere`),
 * used by the lists, their filter options and `GET /api/module/countPendingAreaAlerts`, so the bell
 * always counts exactly the rows the page lists without filters (docs/pending-area.md).
 *
 * An item is pending when it is live (not deleted), in an open month, editable by the caller, and
 * - WIP: saved and not published yet, including items sent back with warnings (`rpas_errors`), or
 * - SUBMIT_IN_PROGRESS for more than PENDING_SUBMIT_STUCK_MINUTES (the publication is stuck).
 */
import { sql, type SQL } from 'drizzle-orm';
import { PENDING_SUBMIT_STUCK_MINUTES, type PendingAreaFilters, type PendingFilterKey, type PendingView } from '@bo/shared/pending-area';
import { queryRows, type Queryable } from '../../db/client.js';
import { liveLock } from '../../lib/locks.repository.js';
import { inLegoMonth } from '../../items/lifecycle/months.repository.js';
import { clusterWhere, moduleWhere } from '../search/search.repository.js';
import type { Visibility } from '../../lib/visibility.js';

/** The table of each view, under the alias `i` (item), with its open month joined as `mo`. */
const FROM: Record<PendingView, SQL> = {
  module: sql.raw('modules m JOIN months mo ON mo.month_id = m.month_id AND mo.open'),
  cluster: sql.raw('clusters c JOIN months mo ON mo.month_id = c.month_id AND mo.open'),
};
const ALIAS: Record<PendingView, string> = { module: 'm', cluster: 'c' };
const col = (view: PendingView, name: string) => sql.raw(`${ALIAS[view]}.${name}`);

/** The pending rule itself (on top of live, visible and open month). */
function pendingRule(view: PendingView): SQL {
  const status = col(view, 'status');
  return sql`(${status} = 'WIP'
           OR (${status} = 'SUBMIT_IN_PROGRESS' AND ${col(view, 'updated_at')} < now() - make_interval(mins => ${PENDING_SUBMIT_STUCK_MINUTES})))`;
}

const FILTER_COLUMNS: Record<PendingFilterKey, string> = { status: 'status', brandCode: 'brand_code', commodity: 'collection', months: 'month_id' };

/** The caller's pending items of the view matching the filters (`omit` leaves one filter out). */
export function pendingWhere(view: PendingView, filters: Partial<PendingAreaFilters>, editable: Visibility, omit?: PendingFilterKey): SQL {
  const parts = [view === 'module' ? moduleWhere({}, editable) : clusterWhere({}, editable), pendingRule(view)];
  for (const [key, column] of Object.entries(FILTER_COLUMNS) as [PendingFilterKey, string][]) {
    const wanted = filters[key];
    if (key !== omit && wanted && wanted.length > 0) parts.push(sql`${col(view, column)} IN ${[...new Set<string>(wanted)]}`);
  }
  return sql.join(parts.map((p) => sql`(${p})`), sql` AND `);
}

export async function countPending(db: Queryable, view: PendingView, where: SQL): Promise<number> {
  const [row] = await queryRows<{ count: number | string }>(db, sql`SELECT count(*)::int AS count FROM ${FROM[view]} WHERE ${where}`);
  return Number(row?.count ?? 0);
}

export interface PendingRow {
  name: string;
  label: string;
  monthId: string;
  brandCode: string;
  commodity: string;
  status: string;
  rpasErrors: string | null;
  userLock: string | null;
  legoMonth: boolean;
}

/** One page of the pending items, by month, brand, label and name. */
export async function pendingPage(db: Queryable, view: PendingView, where: SQL, ttlMinutes: number, offset: number, limit: number): Promise<PendingRow[]> {
  const a = ALIAS[view];
  const [name, label] = view === 'module' ? ['module_name', 'module_label'] : ['cluster_id', 'cluster_label'];
  return queryRows<PendingRow>(
    db,
    sql`SELECT ${col(view, name)} AS name, ${col(view, label)} AS label, ${col(view, 'month_id')} AS "monthId",
               ${col(view, 'brand_code')} AS "brandCode", ${col(view, 'collection')} AS commodity, ${col(view, 'status')} AS status,
               ${col(view, 'rpas_errors')} AS "rpasErrors", lk.owner AS "userLock",
               ${inLegoMonth(sql.raw(a))} AS "legoMonth"
        FROM ${FROM[view]}
        LEFT JOIN locks lk ON lk.item_type = ${view} AND lk.item_key = ${col(view, name)} AND lk.month_id = ${col(view, 'month_id')}
          AND ${liveLock(sql.raw('lk'), ttlMinutes)}
        WHERE ${where}
        ORDER BY mo.year, mo.month, ${col(view, 'brand_code')}, lower(${col(view, label)}), ${col(view, name)}
        LIMIT ${limit} OFFSET ${offset}`,
  );
}

const OPTION_LABELS: Partial<Record<PendingFilterKey, SQL>> = {
  brandCode: sql`SELECT description FROM brands WHERE brand_code = v.value`,
  commodity: sql`SELECT description FROM collections WHERE collection_code = v.value`,
};

/** The values of one filter among the pending items matching `where`, with their people's names. */
export async function pendingOptionValues(db: Queryable, view: PendingView, key: PendingFilterKey, where: SQL): Promise<{ value: string; label: string }[]> {
  const label = OPTION_LABELS[key];
  return queryRows<{ value: string; label: string }>(
    db,
    sql`SELECT v.value, COALESCE(${label ? sql`(${label})` : sql`NULL`}, v.value) AS label
        FROM (SELECT DISTINCT ${col(view, FILTER_COLUMNS[key])} AS value FROM ${FROM[view]} WHERE ${where}) v`,
  );
}
