/**
 * The SQL of the Statistics page (docs/statistics.md). Both calls start from the same clusters (`clusterWhere`
 * of the home search: live, visible to the caller, of the month, brands, collections, planning channels) and
 * the same active SKUs of each cluster:
 *
 * distinct SKUs of the cluster's ADDED modules (live modules of the cluster's month), lines not in the bin
 * (status REMOVED), SKUs neither discontinued nor removed from the range — the Disco/Removed Area's own
 * definition (items/lifecycle/sku-rules.repository.ts `skuRule`: flag_disco, GED expired or SAP disabled; deleted).
 *
 * A cluster's share of a value is 100 × (its active SKUs having the value) / (its active SKUs), exact
 * (numeric, no rounding); a cluster without active SKUs has share 0 for every value.
 */
import { sql, type SQL } from 'drizzle-orm';
import { STATISTIC_NO, STATISTIC_YES, type StatisticField, type StatisticFilter } from '@bo/shared/statistics';
import { queryRows, type Queryable } from '../../db/client.js';
import { liveLock } from '../../lib/locks.repository.js';
import { inLegoMonth } from '../../items/lifecycle/months.repository.js';
import { skuRule } from '../../items/lifecycle/sku-rules.repository.js';

/** Each attribute as text, on the active SKU rows `a` (the yes/no ones as YES / NO). */
const yesNo = (column: string) => sql.raw(`CASE WHEN a.${column} THEN '${STATISTIC_YES}' ELSE '${STATISTIC_NO}' END`);
const FIELD_VALUE: Record<StatisticField, SQL> = {
  marketingTheme: sql.raw('a.marketing_theme'),
  polar: yesNo('polar'),
  gender: sql.raw('a.gender'),
  material: sql.raw('a.frame_material'),
  prizm: yesNo('prizm'),
};

/** `cl`: the clusters matching `where` (alias `c`); `act`: their active SKUs, one row per (cluster, SKU). */
const scope = (where: SQL) => sql`
  cl AS (SELECT c.id, c.month_id FROM clusters c WHERE ${where}),
  act AS (
    SELECT DISTINCT cl.id AS cluster_pk, s.upc, s.marketing_theme, s.polar, s.gender, s.frame_material, s.prizm
    FROM cl
    JOIN cluster_modules cm ON cm.cluster_pk = cl.id AND cm.status = 'ADDED'
    JOIN modules m ON m.module_name = cm.module_name AND m.month_id = cl.month_id AND m.deletion_status IS NULL
    JOIN module_skus ms ON ms.module_id = m.id AND ms.status <> 'REMOVED'
    JOIN skus s ON s.upc = ms.upc AND NOT ${skuRule('disco')} AND NOT ${skuRule('removed')}
  )`;

/** The distinct values of every attribute among the active SKUs of the clusters matching `where`. */
export async function statisticOptionValues(db: Queryable, where: SQL): Promise<{ field: StatisticField; value: string }[]> {
  const fields = Object.entries(FIELD_VALUE) as [StatisticField, SQL][];
  const selects = fields.map(([field, value]) => sql`SELECT DISTINCT ${field}::text AS field, ${value} AS value FROM act a`);
  return queryRows(db, sql`WITH ${scope(where)} ${sql.join(selects, sql` UNION `)}`);
}

interface StatisticRow {
  brand: string;
  clusterId: string;
  monthId: string;
  classId: string;
  clusterLabel: string;
  userLock: string | null;
  legoMonth: boolean;
}

/**
 * At most `limit` clusters matching `where` whose share of each filter's value lies inside its range
 * (every filter must hold), by label then id, with their live lock holder and LEGO month.
 */
export async function statisticClusters(db: Queryable, where: SQL, filters: readonly StatisticFilter[], ttlMinutes: number, limit: number): Promise<StatisticRow[]> {
  const counts = filters.map((f, i) => sql`count(*) FILTER (WHERE ${FIELD_VALUE[f.field]} = ${f.searchValue}) AS ${sql.raw(`k${i}`)}`);
  const share = (i: number) => sql`(CASE WHEN coalesce(sh.n, 0) = 0 THEN 0 ELSE 100.0 * ${sql.raw(`sh.k${i}`)} / sh.n END)`;
  const inRange = filters.map((f, i) => sql`${share(i)} BETWEEN ${String(f.minRange)}::numeric AND ${String(f.maxRange)}::numeric`);
  return queryRows<StatisticRow>(
    db,
    sql`WITH ${scope(where)}
        SELECT c.brand_code AS brand, c.cluster_id AS "clusterId", c.month_id AS "monthId", c.collection AS "classId",
               c.cluster_label AS "clusterLabel", lk.owner AS "userLock",
               ${inLegoMonth(sql.raw('c'))} AS "legoMonth"
        FROM cl
        JOIN clusters c ON c.id = cl.id
        -- One pass over the active SKUs, grouped by cluster (a cluster without any has none: share 0).
        LEFT JOIN (SELECT a.cluster_pk, count(*) AS n, ${sql.join(counts, sql`, `)} FROM act a GROUP BY a.cluster_pk) sh ON sh.cluster_pk = cl.id
        LEFT JOIN locks lk ON lk.item_type = 'cluster' AND lk.item_key = c.cluster_id AND lk.month_id = c.month_id
          AND ${liveLock(sql.raw('lk'), ttlMinutes)}
        WHERE ${sql.join(inRange, sql` AND `)}
        ORDER BY lower(c.cluster_label), c.cluster_label, c.cluster_id
        LIMIT ${limit}`,
  );
}
