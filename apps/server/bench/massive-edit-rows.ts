/**
 * The module rows of a massive edit that change something (massive-edit.bench.ts, the load benchmark's bulk phase):
 * WIP modules nobody holds a lock on, with an active SKU, each row adding the first 2 SKUs (by UPC) of the module's
 * brand and collection that are not in it at all (not even in the bin, not deleted) and removing its first active SKU,
 * as MH, in the module's month. A re-run picks SKUs not yet added, so it changes things again.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ModuleMassiveEditRowInput } from '@bo/shared/massive-edit';

export interface ModuleEditPick {
  /** The months to take modules from, the first ones first. */
  months: readonly string[];
  count: number;
  /** Months and brands left alone (e.g. where planners are working). */
  skip?: readonly { monthId: string; brand: string }[];
}

/** How many of a brand and collection's first SKUs a module's two added SKUs are looked for in. */
const CANDIDATES = 256;

/** Up to `count` rows (fewer when the months do not hold enough such modules); `run` answers a query's rows. */
export async function pickModuleEditRows(run: <T>(query: SQL) => Promise<T[]>, pick: ModuleEditPick): Promise<ModuleMassiveEditRowInput[]> {
  if (!pick.months.length) return [];
  const order = sql`ARRAY[${sql.join(pick.months.map((m) => sql`${m}`), sql`, `)}]::text[]`;
  const skip = pick.skip?.length ? sql`AND (mo.month_id, mo.brand_code) NOT IN (${sql.join(pick.skip.map((s) => sql`(${s.monthId}, ${s.brand})`), sql`, `)})` : sql``;
  const picked = await run<{ module_name: string; month_id: string; remove_upc: string | null; add_upcs: string[] }>(
    sql`WITH m AS (
          SELECT mo.id, mo.module_name, mo.month_id, mo.brand_code, mo.collection, array_position(${order}, mo.month_id) AS rank
            FROM modules mo
           WHERE mo.month_id = ANY(${order}) AND mo.deletion_status IS NULL AND mo.status = 'WIP' ${skip}
             AND NOT EXISTS (SELECT 1 FROM locks l WHERE l.item_type = 'module' AND l.item_key = mo.module_name AND l.month_id = mo.month_id)
             AND EXISTS (SELECT 1 FROM module_skus ms WHERE ms.module_id = mo.id AND ms.status <> 'REMOVED')
           ORDER BY rank, mo.id
           LIMIT ${pick.count}),
        -- The first SKUs (by UPC) of each brand and collection, read once: sorting a brand and collection's SKUs again
        -- for each module took ~30 ms a module. A module holds far fewer lines than CANDIDATES.
        c AS (
          SELECT s.brand_code, s.collection, (array_agg(s.upc ORDER BY s.upc))[1:${CANDIDATES}] AS upcs
            FROM skus s
           WHERE NOT s.deleted AND (s.brand_code, s.collection) IN (SELECT DISTINCT brand_code, collection FROM m)
           GROUP BY s.brand_code, s.collection)
        SELECT m.module_name, m.month_id,
               (SELECT ms.upc FROM module_skus ms WHERE ms.module_id = m.id AND ms.status <> 'REMOVED' ORDER BY ms.position, ms.upc LIMIT 1) AS remove_upc,
               -- In the array's order (by UPC): the first two not in the module at all.
               ARRAY(SELECT u FROM unnest(c.upcs) AS u
                      WHERE NOT EXISTS (SELECT 1 FROM module_skus ms WHERE ms.module_id = m.id AND ms.upc = u)
                      LIMIT 2) AS add_upcs
          FROM m JOIN c ON c.brand_code = m.brand_code AND c.collection = m.collection
         ORDER BY m.rank, m.id`,
  );
  return picked
    .filter((m) => m.add_upcs.length === 2 && m.remove_upc)
    .map((m) => ({ moduleLabels: [m.module_name], upcToAddList: m.add_upcs, upcToRemoveList: [m.remove_upc!], upcStatus: 'MH', monthIdList: [m.month_id] }));
}
