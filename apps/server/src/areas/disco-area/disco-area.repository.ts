/**
 * The SQL of the Discontinuation / Removed Area and of its home bells: one definition of a
 * discontinued and of a removed SKU line (`discoWhere`), used by the lists, their filter options,
 * `GET /api/sku/badgeCounts` and `GET /api/sku/skuDiscoAlert/` (docs/disco-area.md).
 *
 * Aliases: `s` the SKU, `k` its composition line, `m` the module, `mo` the module's month.
 * - discontinued: the SKU is not removed from the range, and it is flagged discontinued (`flag_disco`), or its
 *   GED expiry date is past, or its SAP status is a disabled one (publish-checks.ts SAP_DISABLED_STATUSES);
 * - removed: the SKU was removed from the range (`skus.deleted`);
 * and in both cases the line is not in the bin (not REMOVED), in a live module (no deletion status) of an
 * open month that the caller may view.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { BadgeCounts } from '@bo/shared/badges';
import type { DiscoFilterKey, DiscoFilters, DiscoView } from '@bo/shared/disco-area';
import { queryRows, type Queryable } from '../../db/client.js';
import { liveLock } from '../../lib/locks.repository.js';
import { inLegoMonth } from '../../items/lifecycle/months.repository.js';
import { gedExpired, skuRule } from '../../items/lifecycle/sku-rules.repository.js';
import { moduleWhere } from '../search/search.repository.js';
import type { Visibility } from '../../lib/visibility.js';

/** The lines of SKUs in modules of open months (the rows' table). */
const FROM = sql.raw(`skus s
  JOIN module_skus k ON k.upc = s.upc
  JOIN modules m ON m.id = k.module_id
  JOIN months mo ON mo.month_id = m.month_id AND mo.open`);

/** Where the line sits (aliases `k`, `m`, `mo` joined as in FROM): not in the bin, live module, open month, visible. */
export function lineRule(visible: Visibility): SQL {
  return sql`k.status <> 'REMOVED' AND ${moduleWhere({}, visible)}`;
}

/**
 * The row's type (docs/disco-area.md): 'Removed' for a removed SKU; else the SKU's disco type when it has
 * one ('Disco', 'Super disco'), else what made it discontinued.
 */
const TYPE = sql`CASE WHEN s.deleted THEN 'Removed' ELSE COALESCE(s.disco_type, CASE WHEN s.flag_disco THEN 'Disco'
  WHEN ${gedExpired} THEN 'GED expired' ELSE 'SAP disabled' END) END`;

/** The column (or expression) each filter reads. */
const FILTER_COLUMNS: Record<DiscoFilterKey, SQL> = {
  brandCode: sql`m.brand_code`,
  commodity: sql`m.collection`,
  skuCode: sql`s.sku_code`,
  materialCode: sql`s.material_code`,
  moduleLabel: sql`m.module_label`,
  upc: sql`s.upc`,
  planningChannel: sql`m.planning_channel_id`,
  starsZones: sql`fz.stars_zone`,
  type: TYPE,
  months: sql`m.month_id`,
  storeCount: sql`m.door::text`,
};

function filterPart(key: DiscoFilterKey, wanted: readonly string[]): SQL {
  const list = [...new Set(wanted)];
  if (key === 'starsZones') return sql`EXISTS (SELECT 1 FROM module_stars_zones fz WHERE fz.module_id = m.id AND fz.stars_zone IN ${list})`;
  return sql`${FILTER_COLUMNS[key]} IN ${list}`;
}

/** The caller's rows of the view matching the filters (`omit` leaves one filter out: that filter's options). */
export function discoWhere(view: DiscoView, filters: DiscoFilters, visible: Visibility, omit?: DiscoFilterKey): SQL {
  const parts = [skuRule(view), lineRule(visible)];
  for (const [key, wanted] of Object.entries(filters) as [DiscoFilterKey, string[] | undefined][]) {
    if (key !== omit && wanted && wanted.length > 0) parts.push(filterPart(key, wanted));
  }
  return sql.join(parts.map((p) => sql`(${p})`), sql` AND `);
}

export async function countRows(db: Queryable, where: SQL): Promise<number> {
  const [row] = await queryRows<{ count: number | string }>(db, sql`SELECT count(*)::int AS count FROM ${FROM} WHERE ${where}`);
  return Number(row?.count ?? 0);
}

/**
 * The bells: SKUs (not rows) of the view with at least one line as the definition wants, up to `cap`.
 * Per SKU one probe that stops at its first such line (a LATERAL with LIMIT 1 keeps the planner from
 * hashing every composition line).
 */
function countSkusSql(view: DiscoView, visible: Visibility, cap: number): SQL {
  return sql`(SELECT count(*)::int FROM (
      SELECT 1 FROM skus s CROSS JOIN LATERAL (
        SELECT 1 FROM module_skus k JOIN modules m ON m.id = k.module_id
        JOIN months mo ON mo.month_id = m.month_id AND mo.open
        WHERE k.upc = s.upc AND ${lineRule(visible)} LIMIT 1) x
      WHERE ${skuRule(view)} LIMIT ${cap}) counted)`;
}

/**
 * The home bells and GET /api/sku/skuDiscoAlert/: the SKUs (not rows) of each view without filters that
 * the caller may view, up to `cap` (BADGE_COUNT_CAP). Counted for everyone (the bells are only shown to who may use the area).
 */
export async function discoCounts(db: Queryable, visible: Visibility, cap: number): Promise<BadgeCounts> {
  const [row] = await queryRows<{ numDisco: number; numRemoved: number }>(
    db,
    sql`SELECT ${countSkusSql('disco', visible, cap)} AS "numDisco", ${countSkusSql('removed', visible, cap)} AS "numRemoved"`,
  );
  return { numDisco: Number(row?.numDisco ?? 0), numRemoved: Number(row?.numRemoved ?? 0) };
}

interface DiscoRowData {
  upc: string;
  type: string;
  gedConfirmed: boolean;
  gedExpiryDate: string | null;
  materialCode: string;
  moduleName: string;
  monthId: string;
  moduleLabel: string;
  skuCode: string;
  brandCode: string;
  commodity: string;
  legoMonth: boolean;
  userLock: string | null;
}

/** One page of rows, by month, brand, module label and name, SKU code and upc (a stable order). */
export async function discoPage(db: Queryable, where: SQL, ttlMinutes: number, offset: number, limit: number): Promise<DiscoRowData[]> {
  return queryRows<DiscoRowData>(
    db,
    sql`SELECT s.upc, ${TYPE} AS type, s.ged_confirmed AS "gedConfirmed", s.ged_expire_date::text AS "gedExpiryDate",
               s.material_code AS "materialCode", m.module_name AS "moduleName", m.month_id AS "monthId", m.module_label AS "moduleLabel",
               s.sku_code AS "skuCode", m.brand_code AS "brandCode", m.collection AS commodity, lk.owner AS "userLock",
               ${inLegoMonth(sql.raw('m'))} AS "legoMonth"
        FROM ${FROM}
        LEFT JOIN locks lk ON lk.item_type = 'module' AND lk.item_key = m.module_name AND lk.month_id = m.month_id
          AND ${liveLock(sql.raw('lk'), ttlMinutes)}
        WHERE ${where}
        ORDER BY mo.year, mo.month, m.brand_code, lower(m.module_label), m.module_name, s.sku_code, s.upc
        LIMIT ${limit} OFFSET ${offset}`,
  );
}

const OPTION_LABELS: Partial<Record<DiscoFilterKey, SQL>> = {
  brandCode: sql`SELECT description FROM brands WHERE brand_code = v.value`,
  commodity: sql`SELECT description FROM collections WHERE collection_code = v.value`,
  planningChannel: sql`SELECT label FROM planning_channels WHERE planning_channel_id = v.value`,
  starsZones: sql`SELECT description FROM stars_zones WHERE zone_code = v.value`,
};

/** The values of one filter among the rows matching `where` (the other filters applied), with their labels. */
export async function optionValues(db: Queryable, key: DiscoFilterKey, where: SQL): Promise<{ value: string; label: string }[]> {
  const label = OPTION_LABELS[key];
  const source =
    key === 'starsZones'
      ? sql`SELECT DISTINCT fz.stars_zone AS value FROM ${FROM} JOIN module_stars_zones fz ON fz.module_id = m.id WHERE ${where}`
      : sql`SELECT DISTINCT ${FILTER_COLUMNS[key]} AS value FROM ${FROM} WHERE ${where}`;
  return queryRows<{ value: string; label: string }>(
    db,
    sql`SELECT v.value, COALESCE(${label ? sql`(${label})` : sql`NULL`}, v.value) AS label FROM (${source}) v WHERE v.value IS NOT NULL`,
  );
}

// ───────────── guided replacement ─────────────

interface SkuData {
  upc: string;
  model: string;
  color: string;
  colorDescription: string;
  size: string;
  skuCode: string;
  materialCode: string;
  srp: number;
  brandCode: string;
  collection: string;
}

const SKU_COLUMNS = sql.raw(`s.upc, s.model, s.color, s.color_description AS "colorDescription", s.size, s.sku_code AS "skuCode",
  s.material_code AS "materialCode", s.srp::float8 AS srp`);

/** The SKU when it is one of the caller's discontinued or removed SKUs (either view's definition), else nothing. */
export async function listedSku(db: Queryable, upc: string, visible: Visibility): Promise<SkuData | null> {
  const [row] = await queryRows<SkuData>(
    db,
    sql`SELECT ${SKU_COLUMNS}, s.brand_code AS "brandCode", s.collection FROM skus s
        WHERE s.upc = ${upc} AND (${skuRule('disco')} OR ${skuRule('removed')})
          AND EXISTS (SELECT 1 FROM module_skus k JOIN modules m ON m.id = k.module_id JOIN months mo ON mo.month_id = m.month_id AND mo.open
                      WHERE k.upc = s.upc AND ${lineRule(visible)})`,
  );
  return row ? { ...row, srp: Number(row.srp) } : null;
}

/** The macro families of the modules where the SKU's lines (as the definition wants them) sit. */
export async function skuFamilies(db: Queryable, upc: string, visible: Visibility): Promise<string[]> {
  const rows = await queryRows<{ family: string }>(
    db,
    sql`SELECT DISTINCT m.macro_family AS family FROM ${FROM} WHERE s.upc = ${upc} AND ${lineRule(visible)} ORDER BY 1`,
  );
  return rows.map((r) => r.family);
}

/**
 * Up to `limit` replacements: SKUs of the same brand and collection that sit (not in the bin) in a live
 * module of one of the macro families, neither discontinued nor removed, by closest srp, then best
 * sell-out over `window` (sku_month_stats), then upc.
 */
export async function proposals(
  db: Queryable,
  sku: SkuData,
  families: readonly string[],
  window: readonly string[],
  limit: number,
  /** Whose lines `alreadyIn` counts (the usages': what the caller may edit). */
  editable: Visibility,
): Promise<(Omit<SkuData, 'brandCode' | 'collection'> & { sellOut: number; alreadyIn: number })[]> {
  if (families.length === 0) return [];
  const rows = await queryRows<Omit<SkuData, 'brandCode' | 'collection'> & { sellOut: number | string; alreadyIn: number | string }>(
    db,
    sql`SELECT ${SKU_COLUMNS},
               COALESCE((SELECT sum(st.sell_out) FROM sku_month_stats st WHERE st.upc = s.upc AND st.month_id IN ${[...window]}), 0)::int AS "sellOut",
               (SELECT count(*) FROM module_skus k
                  JOIN module_skus ko ON ko.module_id = k.module_id AND ko.upc = ${sku.upc} AND ko.status <> 'REMOVED'
                  JOIN modules m ON m.id = k.module_id JOIN months mo ON mo.month_id = m.month_id AND mo.open
                WHERE k.upc = s.upc AND ${lineRule(editable)})::int AS "alreadyIn"
        FROM skus s
        WHERE s.brand_code = ${sku.brandCode} AND s.collection = ${sku.collection} AND s.upc <> ${sku.upc}
          AND NOT ${skuRule('disco')} AND NOT ${skuRule('removed')}
          AND EXISTS (SELECT 1 FROM module_skus k JOIN modules m ON m.id = k.module_id
                      WHERE k.upc = s.upc AND k.status <> 'REMOVED' AND m.deletion_status IS NULL AND m.macro_family IN ${[...families]})
        ORDER BY abs(s.srp - ${sku.srp}), "sellOut" DESC, s.upc
        LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, srp: Number(r.srp), sellOut: Number(r.sellOut), alreadyIn: Number(r.alreadyIn) }));
}

/** The SKU's lines (not in the bin) in live modules of open months that the caller may edit. */
export async function usages(db: Queryable, upc: string, editable: Visibility) {
  const rows = await queryRows<{ moduleName: string; moduleLabel: string; monthId: string; mustHave: boolean; minValue: number | string }>(
    db,
    sql`SELECT m.module_name AS "moduleName", m.module_label AS "moduleLabel", m.month_id AS "monthId", k.must_have AS "mustHave", k.min_value AS "minValue"
        FROM ${FROM} WHERE s.upc = ${upc} AND ${lineRule(editable)}
        ORDER BY mo.year, mo.month, lower(m.module_label), m.module_name`,
  );
  return rows.map((r) => ({ ...r, minValue: Number(r.minValue) }));
}

/** The earliest open month (the end of the rolling sell-out window), or null. */
export async function firstOpenMonth(db: Queryable): Promise<string | null> {
  const [row] = await queryRows<{ monthId: string }>(db, sql`SELECT month_id AS "monthId" FROM months WHERE open ORDER BY year, month LIMIT 1`);
  return row?.monthId ?? null;
}
