import { and, asc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { moduleKeyString } from '@bo/shared/item-keys';
import { addMonths } from '@bo/shared/months';
import { preparedOnce, queryRowsNamed, type Queryable } from '../../db/client.js';
import { macroFamilies, moduleSkus, moduleStarsZones, modules, skuMonthStats, skus } from '../../db/schema.js';
import { auditedWith, type AuditEntry } from '../../lib/audit.repository.js';
import { liveLockOwner, type LockTtl } from '../../lib/locks.repository.js';
import { inLegoMonth } from '../lifecycle/months.repository.js';
import { gateColumns, itemScopes } from '../lifecycle/item-gate.repository.js';

export type ModuleRow = typeof modules.$inferSelect;
export interface ModuleRef {
  moduleName: string;
  monthId: string;
}

/**
 * The live (not deleted) module rows of these keys' names and months: a superset of the keys (every name × every
 * month), which the callers narrow to the keys themselves.
 */
const liveModulesOf = (refs: readonly ModuleRef[]): SQL | undefined =>
  and(
    inArray(modules.moduleName, [...new Set(refs.map((r) => r.moduleName))]),
    inArray(modules.monthId, [...new Set(refs.map((r) => r.monthId))]),
    isNull(modules.deletionStatus),
  );

/** One module's live row by its key, its name and month given as the placeholders `moduleName` and `monthId`. */
const oneLiveModule = and(eq(modules.moduleName, sql.placeholder('moduleName')), eq(modules.monthId, sql.placeholder('monthId')), isNull(modules.deletionStatus));

const moduleRowsWhere = (db: Queryable, where: SQL | undefined) => db.select().from(modules).where(where).orderBy(asc(modules.id));
// The builders of `preparedOnce`, one function each (it keeps a statement built by a builder for that builder).
const oneModule = (d: Queryable) => moduleRowsWhere(d, oneLiveModule);
const oneModuleForUpdate = (d: Queryable) => moduleRowsWhere(d, oneLiveModule).for('update');

/** Live (not deleted) module rows for the given keys. `forUpdate` locks the rows for the transaction. */
export async function findModules(db: Queryable, refs: readonly ModuleRef[], forUpdate = false): Promise<ModuleRow[]> {
  if (refs.length === 0) return [];
  // One module (opened, locked for a save): a statement built once (`preparedOnce`), its row found by its key.
  if (refs.length === 1) {
    const { moduleName, monthId } = refs[0]!;
    return forUpdate
      ? preparedOnce(db, 'module_row_for_update', oneModuleForUpdate, { moduleName, monthId })
      : preparedOnce(db, 'module_row', oneModule, { moduleName, monthId });
  }
  const wanted = new Set(refs.map(moduleKeyString));
  const q = moduleRowsWhere(db, liveModulesOf(refs));
  const rows = forUpdate ? await q.for('update') : await q;
  return rows.filter((r) => wanted.has(moduleKeyString(r)));
}

const gatedModulesWhere = (db: Queryable, where: SQL | undefined, ttlMinutes: LockTtl) =>
  db
    .select({ ...getTableColumns(modules), ...gateColumns({ type: 'module', zonesOf: moduleZonesArray }, 'modules', 'module_name', ttlMinutes) })
    .from(modules)
    .where(where)
    .orderBy(asc(modules.id));

const oneModuleGated = (d: Queryable) => gatedModulesWhere(d, oneLiveModule, sql.placeholder('ttlMinutes'));

/**
 * `findModules` with each row's permission scope and gate (item-gate.repository's `gateColumns`), in one statement: the
 * lock path read them in three, a round trip each (docs/performance.md "Save and module open: CPU per call").
 */
export async function findModulesGated(db: Queryable, refs: readonly ModuleRef[], ttlMinutes: number) {
  if (refs.length === 0) return [];
  if (refs.length === 1) {
    const { moduleName, monthId } = refs[0]!;
    return preparedOnce(db, 'module_row_gated', oneModuleGated, { moduleName, monthId, ttlMinutes });
  }
  return gatedModulesWhere(db, liveModulesOf(refs), ttlMinutes);
}

export async function findModule(db: Queryable, ref: ModuleRef, forUpdate = false): Promise<ModuleRow | undefined> {
  return (await findModules(db, [ref], forUpdate))[0];
}

/** Writes fields of the module row with this id and answers the row as saved; with `audited`, records that audit entry in the same statement. */
export async function updateModuleRow(db: Queryable, id: number, values: Partial<typeof modules.$inferInsert>, audited?: AuditEntry): Promise<ModuleRow | undefined> {
  const [saved] = await (audited ? auditedWith(db, audited) : db).update(modules).set(values).where(eq(modules.id, id)).returning();
  return saved;
}

export async function moduleZones(db: Queryable, moduleIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (moduleIds.length === 0) return out;
  const rows = await db
    .select()
    .from(moduleStarsZones)
    .where(inArray(moduleStarsZones.moduleId, [...moduleIds]))
    .orderBy(asc(moduleStarsZones.starsZone));
  for (const r of rows) out.set(r.moduleId, [...(out.get(r.moduleId) ?? []), r.starsZone]);
  return out;
}

export async function familyExists(db: Queryable, macroFamily: string): Promise<boolean> {
  const [row] = await db.select({ f: macroFamilies.macroFamily }).from(macroFamilies).where(eq(macroFamilies.macroFamily, macroFamily));
  return !!row;
}

/** The brand and zones of every live module of a macro family in a month (the rights on the family-month). */
export async function familyModuleScopes(db: Queryable, macroFamily: string, monthId: string): Promise<{ brand: string; zones: string[] }[]> {
  const rows = await db
    .select({ id: modules.id, brand: modules.brandCode })
    .from(modules)
    .where(and(eq(modules.macroFamily, macroFamily), eq(modules.monthId, monthId), isNull(modules.deletionStatus)));
  const zones = await moduleZones(db, rows.map((r) => r.id));
  return rows.map((r) => ({ brand: r.brand, zones: zones.get(r.id) ?? [] }));
}

export interface CompositionLineRow {
  mustHave: boolean;
  status: string;
  previousStatus: string | null;
  previousMustHave: boolean | null;
  minValue: number;
}

/** What a product DTO reads of a SKU and of its month's figures. */
export type ProductSkuFields = Pick<
  typeof skus.$inferSelect,
  | 'upc'
  | 'skuId'
  | 'model'
  | 'color'
  | 'size'
  | 'materialCode'
  | 'skuCode'
  | 'srp'
  | 'whsprice'
  | 'releaseDate'
  | 'insertDate'
  | 'gedExpireDate'
  | 'flagN'
  | 'flagNewAdv'
  | 'flagDisco'
  | 'globalCatalogue'
  | 'polar'
  | 'sapStatus'
  | 'deleted'
  | 'newIn'
>;
export type ProductStatsFields = Pick<typeof skuMonthStats.$inferSelect, 'sellIn' | 'sellOut' | 'outOfStars' | 'rankSellIn' | 'rankSellOut' | 'rankOutOfStars' | 'skuTurn' | 'doorIndex' | 'pty'>;

/**
 * A SKU's fields and its month's figures as a module line shows them, from `skus s` and `sku_month_stats st` (LEFT
 * JOINed: `hasStats` says whether the month has figures for the SKU). Numerics as float8 and dates as text, so that
 * a row and its JSON (`row_to_json`, the save's read before it writes) give the same values.
 */
export const PRODUCT_COLUMNS = sql.raw(`s.upc, s.sku_id::float8 AS "skuId", s.model, s.color, s.size, s.material_code AS "materialCode", s.sku_code AS "skuCode",
          s.srp::float8 AS srp, s.whsprice::float8 AS whsprice, s.release_date::text AS "releaseDate", s.insert_date::text AS "insertDate",
          s.ged_expire_date::text AS "gedExpireDate", s.flag_n AS "flagN", s.flag_new_adv AS "flagNewAdv", s.flag_disco AS "flagDisco",
          s.global_catalogue AS "globalCatalogue", s.polar, s.sap_status AS "sapStatus", s.deleted, s.new_in AS "newIn",
          st.upc IS NOT NULL AS "hasStats", st.sell_in AS "sellIn", st.sell_out AS "sellOut", st.out_of_stars AS "outOfStars",
          st.rank_sell_in AS "rankSellIn", st.rank_sell_out AS "rankSellOut", st.rank_out_of_stars AS "rankOutOfStars",
          st.sku_turn::float8 AS "skuTurn", st.door_index AS "doorIndex", st.pty`);

/** A SKU with its month's figures (`PRODUCT_COLUMNS`). */
export type ProductSkuRow = ProductSkuFields & ProductStatsFields & { hasStats: boolean };

/** A module line with its SKU and its month's figures (`hasStats`: whether the month has figures for the SKU). */
type CompositionLineSkuRow = ProductSkuRow & CompositionLineRow & { moduleId: number };

/**
 * The modules' lines with their SKUs and the figures of each module's month, in one query, in line order. Raw SQL
 * with the product's fields only, named and typed as the Drizzle rows (numerics as float8, dates as
 * text): for a page of 30 × 100 it takes half the time of a Drizzle select of the whole rows, whose
 * mapping of every column of every row was most of the modules call.
 */
export async function compositionLines(db: Queryable, rows: readonly ModuleRow[]): Promise<CompositionLineSkuRow[]> {
  if (rows.length === 0) return [];
  // One module (a module opened or saved): a statement of its own, prepared once per connection (`queryRowsNamed`).
  const one = rows.length === 1;
  return queryRowsNamed<CompositionLineSkuRow>(
    db,
    one ? 'module_lines_one' : undefined,
    sql`SELECT ms.module_id::float8 AS "moduleId", ms.must_have AS "mustHave", ms.status, ms.previous_status AS "previousStatus",
          ms.previous_must_have AS "previousMustHave", ms.min_value::float8 AS "minValue", ${PRODUCT_COLUMNS}
        FROM ${moduleSkus} ms
        JOIN ${skus} s ON s.upc = ms.upc
        JOIN ${modules} m ON m.id = ms.module_id
        LEFT JOIN ${skuMonthStats} st ON st.upc = ms.upc AND st.month_id = m.month_id
        WHERE ${one ? sql`ms.module_id = ${rows[0]!.id}` : sql`ms.module_id IN ${rows.map((r) => r.id)}`}
        ORDER BY ms.module_id, ms.position, ms.upc`,
  );
}

/**
 * In SQL: the stars zones of the module whose id is `moduleId`, sorted (an empty array when none). An ARRAY subquery
 * read in the order of the (module_id, stars_zone) key: no aggregate and no sort per module (the zones of 1,561
 * modules 14.6–15.2 → 9.4–10.1 ms against `array_agg(… ORDER BY …)`, docs/performance.md "Semi-spaces").
 */
export const moduleZonesArray = (moduleId: SQL): SQL =>
  sql`ARRAY(SELECT z.stars_zone FROM module_stars_zones z WHERE z.module_id = ${moduleId} ORDER BY z.stars_zone)`;

/** What a module DTO says beside the module row and its lines, read by `moduleFacts` in one statement. */
export interface ModuleFacts {
  id: number;
  /** Its macro family's special kind (BEST_SELLER, NEWNESS: listed first on the module page), else null. */
  specialKind: string | null;
  zones: string[];
  lockOwner: string | null;
  legoMonth: boolean;
  inOpenMonth: boolean;
  releaseClosed: boolean;
  /** The open months in which the module has a live row. */
  openMonths: string[];
  /** MH and EL lines not in the bin (the row's stored counts, migration 0010). */
  mh: number;
  el: number;
  /** The live row of the same module one month earlier: its counts and the UPCs of its lines not in the bin. */
  previous: { mh: number; el: number; upcs: string[] } | null;
  /** Live clusters of the same month that hold the module (ADDED), by label, with their stars customers. */
  clusters: { clusterLabel: string; starsCustomer: string[] }[];
}

/**
 * Everything a module DTO needs but its lines, for many modules in one statement: its zones, family's special kind,
 * live lock, lego month, month and release state, open months, the month before and its clusters (until 2026-11-27 nine
 * statements in three waves, each on a connection of its own: docs/performance.md "Module facts").
 */
export async function moduleFacts(db: Queryable, rows: readonly ModuleRow[], ttlMinutes: number): Promise<Map<number, ModuleFacts>> {
  if (rows.length === 0) return new Map();
  // One module (a module opened): a statement of its own, prepared once per connection (`queryRowsNamed`), soon run
  // on its generic plan (no planning: ~1 ms).
  const one = rows.length === 1;
  const keys = one
    ? oneModuleKey(rows[0]!)
    : sql`unnest(${sql.param(rows.map((r) => r.id))}::bigint[], ${sql.param(rows.map((r) => addMonths(r.monthId, -1)))}::text[])`;
  const found = await queryRowsNamed<FactsRow>(db, one ? 'module_facts_one' : undefined, moduleFactsSelect(keys, ttlMinutes));
  return new Map(found.map((f) => [Number(f.id), factsOf(f)]));
}

/** The facts' statement's row (`moduleFactsSelect`), before `factsOf`. */
export type FactsRow = Omit<ModuleFacts, 'previous'> & { hasPrevious: boolean; previousMh: number; previousEl: number; previousUpcs: string[] };

/**
 * One module's key for `moduleFactsSelect`: one row of VALUES, which the planner knows is one row, so that a statement
 * holding it, prepared once per connection, is soon run on its generic plan.
 */
export const oneModuleKey = (row: Pick<ModuleRow, 'id' | 'monthId'>): SQL => sql`(VALUES (${row.id}::bigint, ${addMonths(row.monthId, -1)}::text))`;

/** A facts row as the DTOs take it. */
export function factsOf({ hasPrevious, previousMh, previousEl, previousUpcs, ...f }: FactsRow): ModuleFacts {
  // A month before with no line outside the bin counts as none (no refresh index, no previous counts).
  return { ...f, id: Number(f.id), previous: hasPrevious && previousUpcs.length > 0 ? { mh: previousMh, el: previousEl, upcs: previousUpcs } : null };
}

/** The facts' statement of the modules `keys` (rows of module id and the month before its month: `k(id, previous_month)`). */
export function moduleFactsSelect(keys: SQL, ttlMinutes: number): SQL {
  return sql`SELECT m.id::float8 AS id,
               ${moduleZonesArray(sql.raw('m.id'))} AS zones,
               mf.special_kind AS "specialKind",
               ${liveLockOwner('module', sql.raw('m.module_name'), sql.raw('m.month_id'), ttlMinutes)} AS "lockOwner",
               ${inLegoMonth(sql.raw('m'))} AS "legoMonth",
               COALESCE(mo.open, FALSE) AS "inOpenMonth",
               COALESCE(r.status = 'CLOSED', FALSE) AS "releaseClosed",
               ARRAY(SELECT o.month_id FROM modules o JOIN months om ON om.month_id = o.month_id
                      WHERE o.module_name = m.module_name AND o.deletion_status IS NULL AND om.open) AS "openMonths",
               m.mh_count AS mh, m.el_count AS el,
               p.id IS NOT NULL AS "hasPrevious", COALESCE(p.mh_count, 0) AS "previousMh", COALESCE(p.el_count, 0) AS "previousEl",
               ARRAY(SELECT ps.upc FROM module_skus ps WHERE ps.module_id = p.id AND ps.status <> 'REMOVED') AS "previousUpcs",
               -- The clusters' stores and the clusters themselves looked up by key (a store per cluster_stores row, its
               -- foreign key; a cluster per cluster_modules row of the month, found by name and month: migration 0020):
               -- joined, the planner hashed all 2,000 stores once per cluster and every cluster of the month, 1–4 ms of
               -- a module open or save (docs/performance.md "Save and module open: CPU per call", "The clusters of a
               -- module by month").
               COALESCE((SELECT json_agg(json_build_object('clusterLabel', c.cluster_label, 'starsCustomer', ARRAY(
                                  SELECT DISTINCT (SELECT s.stars_customer FROM stores s WHERE s.store_jda = cs.store_jda) AS stars_customer
                                    FROM cluster_stores cs WHERE cs.cluster_pk = c.id ORDER BY 1)) ORDER BY c.cluster_label)
                           FROM cluster_modules cm
                           CROSS JOIN LATERAL (SELECT c.id, c.cluster_label FROM clusters c
                                                WHERE c.id = cm.cluster_pk AND c.deletion_status IS NULL OFFSET 0) c
                          WHERE cm.module_name = m.module_name AND cm.month_id = m.month_id AND cm.status = 'ADDED'),
                        '[]'::json) AS clusters
        FROM ${keys} AS k(id, previous_month)
        JOIN modules m ON m.id = k.id
        LEFT JOIN macro_families mf ON mf.macro_family = m.macro_family
        LEFT JOIN months mo ON mo.month_id = m.month_id
        LEFT JOIN releases r ON r.release_id = mo.release_id
        LEFT JOIN modules p ON p.module_name = m.module_name AND p.month_id = k.previous_month AND p.deletion_status IS NULL`;
}

/**
 * Each module's active (not REMOVED) SKUs: must-have and eligible counts, by module id (absent: no such
 * module). The module's stored counts (`mh_count`, `el_count`, kept by the line triggers of migration 0010).
 */
export async function activeSkuCounts(db: Queryable, ids: readonly number[]): Promise<Map<number, { mh: number; el: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: modules.id, mh: modules.mhCount, el: modules.elCount })
    .from(modules)
    .where(inArray(modules.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { mh: r.mh, el: r.el }]));
}

/** Every live row of a module, in any month, ordered by id. */
export async function liveModuleVersions(db: Queryable, moduleName: string): Promise<ModuleRow[]> {
  return db
    .select()
    .from(modules)
    .where(and(eq(modules.moduleName, moduleName), isNull(modules.deletionStatus)))
    .orderBy(asc(modules.id));
}

/** A module's permission scope: its brand and its stars zones, by row id. */
export function moduleScopes(db: Queryable, rows: readonly ModuleRow[]): Promise<Map<number, { brand: string; zones: string[] }>> {
  return itemScopes(db, moduleZonesArray, rows);
}
