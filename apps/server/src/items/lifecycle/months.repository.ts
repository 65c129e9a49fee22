import { and, eq, sql, type SQL } from 'drizzle-orm';
import { compareMonthIds } from '@bo/shared/months';
import { queryRows, type Queryable } from '../../db/client.js';
import { legoMonths, months } from '../../db/schema.js';

/** Every month, sorted by year then month. */
export async function listMonths(db: Queryable) {
  const rows = await db.select({ monthId: months.monthId, open: months.open }).from(months);
  return rows.sort((a, b) => compareMonthIds(a.monthId, b.monthId));
}

/** In SQL: the item of row `alias` (its month_id, brand_code and collection) is in a LEGO month (the lists' `legoMonth`). */
export const inLegoMonth = (alias: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM lego_months lg WHERE lg.month_id = ${alias}.month_id AND lg.brand_code = ${alias}.brand_code AND lg.collection = ${alias}.collection)`;

/** Is the month a LEGO month for the brand and collection? */
export async function isLegoMonth(db: Queryable, key: { monthId: string; brandCode: string; collection: string }): Promise<boolean> {
  const rows = await db
    .select({ monthId: legoMonths.monthId })
    .from(legoMonths)
    .where(and(eq(legoMonths.monthId, key.monthId), eq(legoMonths.brandCode, key.brandCode), eq(legoMonths.collection, key.collection)))
    .limit(1);
  return rows.length > 0;
}

/** A month as the lifecycle sees it: does it exist, is it open, is its release closed (its items read-only)? */
export interface MonthState {
  exists: boolean;
  open: boolean;
  releaseClosed: boolean;
  releaseId: string | null;
}

/**
 * In SQL, the one reading of month and release state: `monthStateJoin(monthId)` joins the month of that expression
 * (none when unknown) and its release; `MONTH_STATE_COLUMNS` selects a MonthState's fields from them. Used by
 * `monthStates` and by statements that read a month's state beside other facts (the lifecycle's scopes and gates, item-gate.repository.ts).
 */
export const monthStateJoin = (monthId: SQL): SQL =>
  sql`LEFT JOIN months ms_mo ON ms_mo.month_id = ${monthId} LEFT JOIN releases ms_r ON ms_r.release_id = ms_mo.release_id`;
export const MONTH_STATE_COLUMNS = sql`ms_mo.month_id IS NOT NULL AS "exists", COALESCE(ms_mo.open, FALSE) AS open,
  COALESCE(ms_r.status = 'CLOSED', FALSE) AS "releaseClosed", ms_mo.release_id AS "releaseId"`;

/** The state of each month asked for (unknown months answer `exists: false`). */
export async function monthStates(db: Queryable, monthIds: readonly string[]): Promise<Map<string, MonthState>> {
  const ids = [...new Set(monthIds)];
  const out = new Map<string, MonthState>();
  if (ids.length === 0) return out;
  const rows = await queryRows<MonthState & { monthId: string }>(
    db,
    sql`SELECT v.id AS "monthId", ${MONTH_STATE_COLUMNS} FROM unnest(${sql.param(ids)}::text[]) AS v(id) ${monthStateJoin(sql.raw('v.id'))}`,
  );
  for (const { monthId, ...state } of rows) out.set(monthId, state);
  return out;
}

export async function monthStateOf(db: Queryable, monthId: string): Promise<MonthState> {
  return (await monthStates(db, [monthId])).get(monthId)!;
}

/** The open month ids, sorted by year then month. */
export async function openMonthIds(db: Queryable): Promise<string[]> {
  const rows = await db.select({ monthId: months.monthId }).from(months).where(eq(months.open, true));
  return rows.map((r) => r.monthId).sort(compareMonthIds);
}
