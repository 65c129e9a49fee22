import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { compareMonthIds } from '@bo/shared/months';
import type { Queryable } from '../../db/client.js';
import { legoMonths, months, releases } from '../../db/schema.js';

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

/** The state of each month asked for (unknown months answer `exists: false`). The one reader of month and release state. */
export async function monthStates(db: Queryable, monthIds: readonly string[]): Promise<Map<string, MonthState>> {
  const out = new Map<string, MonthState>();
  const ids = [...new Set(monthIds)];
  for (const id of ids) out.set(id, { exists: false, open: false, releaseClosed: false, releaseId: null });
  if (ids.length === 0) return out;
  const rows = await db
    .select({ monthId: months.monthId, open: months.open, releaseId: months.releaseId, releaseStatus: releases.status })
    .from(months)
    .leftJoin(releases, eq(releases.releaseId, months.releaseId))
    .where(inArray(months.monthId, ids));
  for (const r of rows) out.set(r.monthId, { exists: true, open: r.open, releaseClosed: r.releaseStatus === 'CLOSED', releaseId: r.releaseId });
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
