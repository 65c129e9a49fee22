/**
 * The home sidebar's bells (part 1 §2 "Sidebar buttons", §7), counted in SQL over what the caller
 * may see (docs/DECISIONS.md "Home badges"):
 * - pending alerts: live modules and clusters of open months, in WIP, that came back from the
 *   planning system with warnings (`rpas_errors`), among those the caller may edit;
 * - disco / removed: SKUs flagged discontinued (`flag_disco`) / deleted that still sit (not in the bin)
 *   in live modules of open months the caller may view, counted up to BADGE_COUNT_CAP.
 */
import { sql, type SQL } from 'drizzle-orm';
import { BADGE_COUNT_CAP, type BadgeCounts } from '@bo/shared/badges';
import { queryRows } from '../../db/client.js';
import type { ServiceContext } from '../../lib/context.js';
import { clusterWhere, moduleWhere } from '../search/search.repository.js';
import { visibilityOf } from '../search/visibility.js';

export async function countPendingAreaAlerts(ctx: ServiceContext): Promise<number> {
  const editable = visibilityOf(ctx.user.grants, ['edit']);
  const [row] = await queryRows<{ modules: number; clusters: number }>(
    ctx.db,
    sql`SELECT
          (SELECT count(*)::int FROM modules m JOIN months mo ON mo.month_id = m.month_id AND mo.open
            WHERE ${moduleWhere({}, editable)} AND m.status = 'WIP' AND m.rpas_errors IS NOT NULL AND m.rpas_errors <> '') AS modules,
          (SELECT count(*)::int FROM clusters c JOIN months mo ON mo.month_id = c.month_id AND mo.open
            WHERE ${clusterWhere({}, editable)} AND c.status = 'WIP' AND c.rpas_errors IS NOT NULL AND c.rpas_errors <> '') AS clusters`,
  );
  return Number(row?.modules ?? 0) + Number(row?.clusters ?? 0);
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
