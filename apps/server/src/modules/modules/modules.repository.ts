import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { itemKeyString, moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import { addMonths } from '@bo/shared/months';
import { queryRows, type Queryable } from '../../db/client.js';
import {
  clusterModules,
  clusters,
  clusterStores,
  legoMonths,
  macroFamilies,
  moduleSkus,
  moduleStarsZones,
  modules,
  skuMonthStats,
  skus,
  stores,
} from '../../db/schema.js';
import { liveLocks } from '../locks/locks.repository.js';
import { monthStates, openMonthIds } from '../months/months.repository.js';

export type ModuleRow = typeof modules.$inferSelect;
export interface ModuleRef {
  moduleName: string;
  monthId: string;
}

/** Live (not deleted) module rows for the given keys. `forUpdate` locks the rows for the transaction. */
export async function findModules(db: Queryable, refs: readonly ModuleRef[], forUpdate = false): Promise<ModuleRow[]> {
  if (refs.length === 0) return [];
  const wanted = new Set(refs.map(moduleKeyString));
  const q = db
    .select()
    .from(modules)
    .where(
      and(
        inArray(modules.moduleName, [...new Set(refs.map((r) => r.moduleName))]),
        inArray(modules.monthId, [...new Set(refs.map((r) => r.monthId))]),
        isNull(modules.deletionStatus),
      ),
    )
    .orderBy(asc(modules.id));
  const rows = forUpdate ? await q.for('update') : await q;
  return rows.filter((r) => wanted.has(moduleKeyString(r)));
}

export async function findModule(db: Queryable, ref: ModuleRef, forUpdate = false): Promise<ModuleRow | undefined> {
  return (await findModules(db, [ref], forUpdate))[0];
}

/** Writes fields of the module row with this id and answers the row as saved. */
export async function updateModuleRow(db: Queryable, id: number, values: Partial<typeof modules.$inferInsert>): Promise<ModuleRow | undefined> {
  const [saved] = await db.update(modules).set(values).where(eq(modules.id, id)).returning();
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

export const imageUrl = (upc: string, view = 1) => `/data/images/${upc}/${view}.png`;

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

/** A SKU as a module line with the month's figures; without a line, as a SKU not in any module yet (added as EL). */
export function toProductDto(
  sku: ProductSkuFields,
  st: ProductStatsFields | undefined,
  line: CompositionLineRow = { mustHave: false, status: 'ADDED', previousStatus: null, previousMustHave: null, minValue: 1 },
): ProductDto {
  const removed = line.status === 'REMOVED';
  return {
    upc: sku.upc,
    skuId: sku.skuId,
    model: sku.model,
    color: sku.color,
    size: sku.size,
    materialCode: sku.materialCode,
    skuCode: sku.skuCode,
    mustHave: line.mustHave,
    eligible: !line.mustHave,
    moduleCompositionStatus: line.status as ProductDto['moduleCompositionStatus'],
    previousStatus: line.previousStatus,
    previousVersion: removed && line.previousMustHave !== null ? (line.previousMustHave ? 'MH' : 'EL') : null,
    minValue: line.minValue,
    srp: sku.srp,
    whsprice: sku.whsprice,
    sellIn: st?.sellIn ?? null,
    sellOut: st?.sellOut ?? null,
    outOfStars: st?.outOfStars ?? null,
    rankSellIn: st?.rankSellIn ?? null,
    rankSellOut: st?.rankSellOut ?? null,
    rankOutOfStars: st?.rankOutOfStars ?? null,
    skuTurn: st?.skuTurn ?? null,
    doorIndex: st?.doorIndex ?? null,
    pty: st?.pty ?? null,
    releaseDate: sku.releaseDate,
    insertDate: sku.insertDate,
    gedExpireDate: sku.gedExpireDate,
    flagN: sku.flagN,
    flagNewAdv: sku.flagNewAdv,
    flagDisco: sku.flagDisco,
    globalCatalogue: sku.globalCatalogue,
    polar: sku.polar,
    sapStatus: sku.sapStatus,
    deleted: sku.deleted,
    newIn: sku.newIn,
    imageUrl: imageUrl(sku.upc),
  };
}

type CompositionRow = ProductSkuFields & ProductStatsFields & CompositionLineRow & { moduleId: number; hasStats: boolean };

/**
 * The modules' lines with their SKUs and the figures of each module's month, in one query. Raw SQL
 * with the product's fields only, named and typed as the Drizzle rows (numerics as float8, dates as
 * text): for a page of 30 × 100 it takes half the time of a Drizzle select of the whole rows, whose
 * mapping of every column of every row was most of the modules call.
 */
async function compositions(db: Queryable, rows: readonly ModuleRow[]): Promise<Map<number, ProductDto[]>> {
  const out = new Map<number, ProductDto[]>();
  if (rows.length === 0) return out;
  const lines = await queryRows<CompositionRow>(
    db,
    sql`SELECT ms.module_id::float8 AS "moduleId", ms.must_have AS "mustHave", ms.status, ms.previous_status AS "previousStatus",
          ms.previous_must_have AS "previousMustHave", ms.min_value::float8 AS "minValue",
          s.upc, s.sku_id::float8 AS "skuId", s.model, s.color, s.size, s.material_code AS "materialCode", s.sku_code AS "skuCode",
          s.srp::float8 AS srp, s.whsprice::float8 AS whsprice, s.release_date::text AS "releaseDate", s.insert_date::text AS "insertDate",
          s.ged_expire_date::text AS "gedExpireDate", s.flag_n AS "flagN", s.flag_new_adv AS "flagNewAdv", s.flag_disco AS "flagDisco",
          s.global_catalogue AS "globalCatalogue", s.polar, s.sap_status AS "sapStatus", s.deleted, s.new_in AS "newIn",
          st.upc IS NOT NULL AS "hasStats", st.sell_in AS "sellIn", st.sell_out AS "sellOut", st.out_of_stars AS "outOfStars",
          st.rank_sell_in AS "rankSellIn", st.rank_sell_out AS "rankSellOut", st.rank_out_of_stars AS "rankOutOfStars",
          st.sku_turn::float8 AS "skuTurn", st.door_index AS "doorIndex", st.pty
        FROM ${moduleSkus} ms
        JOIN ${skus} s ON s.upc = ms.upc
        JOIN ${modules} m ON m.id = ms.module_id
        LEFT JOIN ${skuMonthStats} st ON st.upc = ms.upc AND st.month_id = m.month_id
        WHERE ms.module_id IN ${rows.map((r) => r.id)}
        ORDER BY ms.module_id, ms.position, ms.upc`,
  );
  for (const line of lines) {
    const product = toProductDto(line, line.hasStats ? line : undefined, line);
    const list = out.get(line.moduleId);
    if (list) list.push(product);
    else out.set(line.moduleId, [product]);
  }
  return out;
}

/** MH and EL counts (not removed) of the same modules one month earlier. */
async function previousCounts(db: Queryable, rows: readonly ModuleRow[]) {
  const out = new Map<string, { mh: number; el: number; upcs: Set<string> }>();
  if (rows.length === 0) return out;
  const prev = rows.map((r) => ({ moduleName: r.moduleName, monthId: addMonths(r.monthId, -1) }));
  const prevRows = await findModules(db, prev);
  if (prevRows.length === 0) return out;
  const lines = await db
    .select({ moduleId: moduleSkus.moduleId, upc: moduleSkus.upc, mustHave: moduleSkus.mustHave })
    .from(moduleSkus)
    .where(and(inArray(moduleSkus.moduleId, prevRows.map((r) => r.id)), sql`${moduleSkus.status} <> 'REMOVED'`));
  const nameById = new Map(prevRows.map((r) => [r.id, r.moduleName]));
  for (const l of lines) {
    const name = nameById.get(l.moduleId)!;
    const c = out.get(name) ?? { mh: 0, el: 0, upcs: new Set<string>() };
    if (l.mustHave) c.mh++;
    else c.el++;
    c.upcs.add(l.upc);
    out.set(name, c);
  }
  return out;
}

/** Clusters of the same month that carry the module, with their stars customers. */
async function clustersOf(db: Queryable, rows: readonly ModuleRow[]) {
  const out = new Map<string, { clusterLabel: string; starsCustomer: string[] }[]>();
  if (rows.length === 0) return out;
  const found = await db
    .select({ moduleName: clusterModules.moduleName, monthId: clusters.monthId, clusterPk: clusters.id, clusterLabel: clusters.clusterLabel })
    .from(clusterModules)
    .innerJoin(clusters, eq(clusters.id, clusterModules.clusterPk))
    .where(
      and(
        inArray(clusterModules.moduleName, [...new Set(rows.map((r) => r.moduleName))]),
        inArray(clusters.monthId, [...new Set(rows.map((r) => r.monthId))]),
        eq(clusterModules.status, 'ADDED'),
        isNull(clusters.deletionStatus),
      ),
    )
    .orderBy(asc(clusters.clusterLabel));
  const pks = [...new Set(found.map((f) => f.clusterPk))];
  const customers = new Map<number, string[]>();
  if (pks.length) {
    const cs = await db
      .selectDistinct({ clusterPk: clusterStores.clusterPk, customer: stores.starsCustomer })
      .from(clusterStores)
      .innerJoin(stores, eq(stores.storeJda, clusterStores.storeJda))
      .where(inArray(clusterStores.clusterPk, pks))
      .orderBy(asc(stores.starsCustomer));
    for (const c of cs) customers.set(c.clusterPk, [...(customers.get(c.clusterPk) ?? []), c.customer]);
  }
  for (const f of found) {
    const key = moduleKeyString(f);
    out.set(key, [...(out.get(key) ?? []), { clusterLabel: f.clusterLabel, starsCustomer: customers.get(f.clusterPk) ?? [] }]);
  }
  return out;
}

export interface DtoOptions {
  lockTtlMinutes: number;
  /** Leave the SKU lists out (lists of many modules). */
  withoutProducts?: boolean;
}

/** Builds the module DTOs the browser works with, in the order of `rows`, with few queries per batch. */
export async function toModuleDtos(db: Queryable, rows: readonly ModuleRow[], opts: DtoOptions): Promise<ModuleDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const monthIds = [...new Set(rows.map((r) => r.monthId))];
  const [zones, products, prev, clusterMap, lockMap, states, openMonths, lego, presence] = await Promise.all([
    moduleZones(db, ids),
    opts.withoutProducts ? Promise.resolve(new Map<number, ProductDto[]>()) : compositions(db, rows),
    previousCounts(db, rows),
    clustersOf(db, rows),
    liveLocks(db, 'module', rows.map((r) => ({ itemKey: r.moduleName, monthId: r.monthId })), opts.lockTtlMinutes),
    monthStates(db, monthIds),
    openMonthIds(db),
    db
      .select()
      .from(legoMonths)
      .where(inArray(legoMonths.monthId, monthIds)),
    db
      .select({ moduleName: modules.moduleName, monthId: modules.monthId })
      .from(modules)
      .where(and(inArray(modules.moduleName, [...new Set(rows.map((r) => r.moduleName))]), isNull(modules.deletionStatus))),
  ]);
  const open = new Set(openMonths);
  const legoSet = new Set(lego.map((l) => `${l.monthId}|${l.brandCode}|${l.collection}`));
  const monthsOf = new Map<string, string[]>();
  for (const p of presence) if (open.has(p.monthId)) monthsOf.set(p.moduleName, [...(monthsOf.get(p.moduleName) ?? []), p.monthId]);

  // Counts and refresh indexes need the composition even when the list leaves products out.
  const counts = opts.withoutProducts ? await activeSkuCounts(db, ids) : null;

  return rows.map((r) => {
    const list = products.get(r.id) ?? [];
    const active = list.filter((p) => p.moduleCompositionStatus !== 'REMOVED');
    const mh = counts ? (counts.get(r.id)?.mh ?? 0) : active.filter((p) => p.mustHave).length;
    const el = counts ? (counts.get(r.id)?.el ?? 0) : active.filter((p) => !p.mustHave).length;
    const before = prev.get(r.moduleName);
    const refresh = (subset: ProductDto[]) =>
      subset.length === 0 || !before ? 0 : Math.round((100 * subset.filter((p) => !before.upcs.has(p.upc)).length) / subset.length);
    const lockOwner = lockMap.get(itemKeyString({ itemKey: r.moduleName, monthId: r.monthId })) ?? null;
    return {
      moduleName: r.moduleName,
      moduleLabel: r.moduleLabel,
      moduleDescription: r.moduleDescription,
      monthId: r.monthId,
      macroFamily: r.macroFamily,
      brand: r.brandCode,
      collection: r.collection,
      starZones: zones.get(r.id) ?? [],
      status: r.status as ModuleDto['status'],
      locked: lockOwner !== null,
      userLock: lockOwner,
      legoMonth: legoSet.has(`${r.monthId}|${r.brandCode}|${r.collection}`),
      inOpenMonth: open.has(r.monthId),
      openMonthIdList: (monthsOf.get(r.moduleName) ?? []).sort(),
      productDtoList: list,
      door: r.door,
      pty: active.reduce((sum, p) => sum + (p.pty ?? 0), 0),
      refreshIndex: refresh(active),
      refreshIndexMH: refresh(active.filter((p) => p.mustHave)),
      refreshIndexEL: refresh(active.filter((p) => !p.mustHave)),
      previousMustHave: before?.mh ?? 0,
      previousEligible: before?.el ?? 0,
      length: mh,
      elLength: el,
      initialSize: r.initialSize,
      newModule: r.newModule,
      clusters: clusterMap.get(moduleKeyString(r)) ?? [],
      publicationDate: r.publicationDate ? r.publicationDate.toISOString() : null,
      rpasErrors: r.rpasErrors,
      releaseClosed: states.get(r.monthId)?.releaseClosed ?? false,
      isEdited: false,
      isDescriptionEdited: false,
      newDescription: null,
      version: r.version,
    };
  });
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
export async function moduleScopes(db: Queryable, rows: readonly ModuleRow[]): Promise<Map<number, { brand: string; zones: string[] }>> {
  const zones = await moduleZones(db, rows.map((r) => r.id));
  return new Map(rows.map((r) => [r.id, { brand: r.brandCode, zones: zones.get(r.id) ?? [] }]));
}
