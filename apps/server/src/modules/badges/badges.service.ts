/**
 * The home sidebar's bells (part 1 §2 "Sidebar buttons", §7), counted in SQL over what the caller
 * may see (docs/DECISIONS.md "Home badges"):
 * - pending alerts: the Pending Area's items (pending-area.repository.ts `pendingWhere`, one definition):
 *   live, open month, editable by the caller, WIP with planning-system warnings or stuck SUBMIT_IN_PROGRESS;
 * - disco / removed: SKUs flagged discontinued (`flag_disco`) / deleted that still sit (not in the bin)
 *   in live modules of open months the caller may view, counted up to BADGE_COUNT_CAP.
 */
import { sql, type SQL } from 'drizzle-orm';
import { BADGE_COUNT_CAP, type BadgeCounts } from '@bo/shared/badges';
import { queryRows } from '../../db/client.js';
import type { ServiceContext } from '../../lib/context.js';
import { moduleWhere } from '../search/search.repository.js';
import { countPending, pendingWhere } from '../pending-area/pending-area.repository.js';
import { visibilityOf } from '../search/visibility.js';

/** The Pending Area's own definition (pending-area.repository.ts), over both views: the bell equals the unfiltered list. */
export async function countPendingAreaAlerts(ctx: ServiceContext): Promise<number> {
  const editable = visibilityOf(ctx.user.grants, ['edit']);
  const [modules, clusters] = await Promise.all(
    (['module', 'cluster'] as const).map((view) => countPending(ctx.db, view, pendingWhere(view, {}, editable))),
  );
  return (modules ?? 0) + (clusters ?? 0);
}

export async function badgeCounts(ctx: ServiceContext): Promise<BadgeCounts> {
  const visible = moduleWhere({}, visibilityOf(ctx.user.grants));
  // Per SKU, one probe that stops at its first live module of an open month (a LATERAL with LIMIT 1
  // keeps the planner from hashing every composition line); LIMIT caps the count.
  const count = (flag: SQL) => sql`(SELECT count(*)::int FROM (
      SELECT 1 FROM skus s CROSS JOIN LATERAL (
        SELECT 1 FROM module_skus k JOIN modules m ON m.id = k.module_id
        JOIN months mo ON mo.month_id = m.month_id AND mo.open
        WHERE k.upc = s.upc AND k.status <> 'REMOVED' AND ${visible} LIMIT 1) x
      WHERE ${flag} LIMIT ${BADGE_COUNT_CAP}) counted)`;
  const [row] = await queryRows<{ numDisco: number; numRemoved: number }>(
    ctx.db,
    sql`SELECT ${count(sql`s.flag_disco`)} AS "numDisco", ${count(sql`s.deleted`)} AS "numRemoved"`,
  );
  return { numDisco: Number(row?.numDisco ?? 0), numRemoved: Number(row?.numRemoved ?? 0) };
}
