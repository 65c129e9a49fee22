/**
 * The working area's own calls (docs/working-area.md): loading and importing modules for the page,
 * performances, Active SKUs search, cluster analysis, newness views, published modules of a SKU and
 * extra sell-in. Reads only: every write of the page goes through the lifecycle engine.
 */
import { moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleKey } from '@bo/shared/modules';
import { addMonths } from '@bo/shared/months';
import { canView } from '@bo/shared/permissions';
import {
  DEFAULT_MONTHS_ROLLING,
  type ActiveSku,
  type ActiveSkuSearch,
  type ClusterAnalysisItem,
  type NewnessResponse,
  narrowsByPlace,
  type PerformanceFilters,
  type PerformancesResponse,
  type WorkingModule,
} from '@bo/shared/working-area';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden, notFound, tooManyResults } from '../../lib/errors.js';
import { findModules, moduleZones, type ModuleRow } from '../../items/module/modules.repository.js';
import { toModuleDtos } from '../../items/module/module.presenter.js';
import * as repo from './working-area.repository.js';

/** The modules of the rows as every module answer has them, only those the caller may view. */
async function visibleModules(ctx: ServiceContext, rows: readonly ModuleRow[]): Promise<WorkingModule[]> {
  const dtos = await toModuleDtos(ctx.db, rows, { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES });
  return dtos.filter((d) => canView(ctx.user.grants, { brand: d.brand, zones: d.starZones }));
}

/**
 * POST /api/module/modules: the page's modules, in the order asked, only those the caller may view.
 * With performance filters (`ibicFilters`), each SKU's sell-in and sell-out are those of the filters'
 * places and rolling window (`performanceFigures`); SKUs outside `legoClassDes` have none (null). The
 * compositions themselves are never narrowed: a save sends them back whole (docs/module-calls.md).
 */
export async function loadModules(ctx: ServiceContext, keys: readonly ModuleKey[], ibicFilters?: PerformanceFilters): Promise<WorkingModule[]> {
  const rows = await findModules(ctx.db, keys);
  const order = new Map(keys.map((k, i) => [moduleKeyString(k), i]));
  rows.sort((a, b) => (order.get(moduleKeyString(a)) ?? 0) - (order.get(moduleKeyString(b)) ?? 0));
  const list = await visibleModules(ctx, rows);
  if (!ibicFilters || !hasPerformanceFilter(ibicFilters)) return list;
  const byMonth = new Map<string, PerformanceFigures>();
  for (const monthId of new Set(list.map((m) => m.monthId))) {
    const upcs = list.filter((m) => m.monthId === monthId).flatMap((m) => m.productDtoList.map((p) => p.upc));
    byMonth.set(monthId, await performanceFigures(ctx, ibicFilters, monthId, upcs));
  }
  return list.map((m) => {
    const { kept, figures } = byMonth.get(m.monthId)!;
    return {
      ...m,
      productDtoList: m.productDtoList.map((p) =>
        kept.has(p.upc) ? { ...p, sellIn: figures.get(p.upc)?.sellIn ?? 0, sellOut: figures.get(p.upc)?.sellOut ?? 0 } : { ...p, sellIn: null, sellOut: null },
      ),
    };
  });
}

/** The rows of one viewable module, or 404 / 403. */
async function viewableModule(ctx: ServiceContext, key: ModuleKey): Promise<ModuleRow> {
  const [row] = await findModules(ctx.db, [key]);
  if (!row) throw notFound(`The module ${key.moduleName} does not exist in ${key.monthId}`);
  const zones = (await moduleZones(ctx.db, [row.id])).get(row.id) ?? [];
  if (!canView(ctx.user.grants, { brand: row.brandCode, zones })) throw forbidden(`You may not see the module ${key.moduleName}`);
  return row;
}

/** POST /api/module/importModules: modules by key, and whole macro families of a month. */
export async function importModules(
  ctx: ServiceContext,
  items: readonly { moduleName?: string | undefined; monthId: string; macroFamily?: string | undefined; brand?: string | undefined; collection?: string | undefined }[],
) {
  const byKey = items.filter((i) => i.moduleName).map((i) => ({ moduleName: i.moduleName!, monthId: i.monthId }));
  const rows = await findModules(ctx.db, byKey);
  const found = new Set(rows.map(moduleKeyString));
  const notFoundList = byKey.filter((k) => !found.has(moduleKeyString(k))).map((k) => `${k.moduleName} (${k.monthId})`);
  for (const f of items.filter((i) => !i.moduleName && i.macroFamily)) {
    const family = await repo.familyModules(ctx.db, { macroFamily: f.macroFamily!, monthId: f.monthId, brand: f.brand, collection: f.collection });
    if (family.length === 0) notFoundList.push(`${f.macroFamily} (${f.monthId})`);
    for (const r of family) {
      if (found.has(moduleKeyString(r))) continue;
      found.add(moduleKeyString(r));
      rows.push(r);
    }
  }
  return { moduleDtoList: await visibleModules(ctx, rows), notFound: notFoundList };
}

// ───────────────────────────── Performances ─────────────────────────────

/** The months of the rolling window ending with `monthId`, oldest first. */
export function rollingMonths(monthId: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addMonths(monthId, i - count + 1));
}

const NO_CUSTOMER_STORE = 'No store matches the chosen customers or distribution channels';

/** Resolves the performance filters (part 2 §2) once, for the performance popup and the Active SKUs search. */
async function performanceScope(ctx: ServiceContext, f: PerformanceFilters, monthId: string): Promise<repo.PerformanceScope> {
  const window = rollingMonths(monthId, f.monthsRolling?.[0] ?? DEFAULT_MONTHS_ROLLING);
  // Zones: the chosen zones, intersected with the zones of the chosen countries.
  let zones: string[] | null = f.zonaPerMysa?.length ? [...f.zonaPerMysa] : null;
  if (f.countryName?.length) {
    const countryZones = await repo.zonesOfCountries(ctx.db, f.countryName);
    zones = zones ? zones.filter((z) => countryZones.includes(z)) : countryZones;
  }
  // Customers: only the (zone, segmentation) cells where the chosen customers have stores.
  const customers = [...(f.starsCustomer ?? []), ...(f.customerCode ?? [])];
  const channels = f.distrChannelActual ?? [];
  const cells = customers.length || channels.length ? await repo.customerCells(ctx.db, { customers, channels }) : null;
  return { window, zones, cells };
}

/** Whether the body gives any performance filter (an empty object, or empty lists, give none). */
export const hasPerformanceFilter = (f: PerformanceFilters) => Object.values(f).some((v) => Array.isArray(v) && v.length > 0);

export interface PerformanceFigures {
  /** The SKUs the filters keep (all, unless `legoClassDes` names classes). */
  kept: Set<string>;
  /** Sell-in and sell-out of the kept SKUs summed over the window in the chosen places (absent: none sold there). */
  figures: Map<string, { sellIn: number; sellOut: number }>;
}

/**
 * The SKUs' figures under the performance filters, for a page month: the same resolution of the
 * filters as the performance popup (`performanceScope`), summed per SKU. Used by /api/module/modules
 * and /api/module/filteredDetails.
 */
export async function performanceFigures(ctx: ServiceContext, f: PerformanceFilters, monthId: string, upcList: readonly string[]): Promise<PerformanceFigures> {
  let upcs = [...new Set(upcList)];
  if (f.legoClassDes?.length) {
    const skuRows = await repo.skusByUpc(ctx.db, upcs);
    upcs = upcs.filter((u) => f.legoClassDes!.includes(skuRows.get(u)?.legoClass ?? ''));
  }
  const { window, zones, cells } = await performanceScope(ctx, f, monthId);
  const facts = (zones && zones.length === 0) || (cells && cells.size === 0) ? [] : await repo.performanceFacts(ctx.db, upcs, window, zones);
  const figures = new Map<string, { sellIn: number; sellOut: number }>();
  for (const fact of facts) {
    if (cells && !cells.has(`${fact.starsZone}|${fact.customerSegmentation}`)) continue;
    const sum = figures.get(fact.upc) ?? { sellIn: 0, sellOut: 0 };
    sum.sellIn += fact.sellIn;
    sum.sellOut += fact.sellOut;
    figures.set(fact.upc, sum);
  }
  return { kept: new Set(upcs), figures };
}

export async function modulePerformances(
  ctx: ServiceContext,
  body: { moduleDto: ModuleKey & { productDtoList?: { upc: string }[] | undefined }; ibicFilters?: PerformanceFilters | undefined },
): Promise<PerformancesResponse> {
  const row = await viewableModule(ctx, body.moduleDto);
  const f = body.ibicFilters ?? {};
  const { window, zones, cells } = await performanceScope(ctx, f, row.monthId);
  const messages: string[] = [];

  let upcs = body.moduleDto.productDtoList?.map((p) => p.upc) ?? (await repo.activeLines(ctx.db, [row.moduleName], [row.monthId])).map((l) => l.upc);
  upcs = [...new Set(upcs)];
  const skuRows = await repo.skusByUpc(ctx.db, upcs);
  if (f.legoClassDes?.length) upcs = upcs.filter((u) => f.legoClassDes!.includes(skuRows.get(u)?.legoClass ?? ''));

  if (cells && cells.size === 0) messages.push(NO_CUSTOMER_STORE);

  const facts = (zones && zones.length === 0) || (cells && cells.size === 0) ? [] : await repo.performanceFacts(ctx.db, upcs, window, zones);
  const byUpc = new Map<string, repo.PerformanceFact[]>();
  for (const fact of facts) {
    if (cells && !cells.has(`${fact.starsZone}|${fact.customerSegmentation}`)) continue;
    byUpc.set(fact.upc, [...(byUpc.get(fact.upc) ?? []), fact]);
  }

  const upcList = upcs
    .filter((u) => byUpc.has(u))
    .map((upc) => {
      const list = byUpc.get(upc)!;
      const zonesMap = new Map<string, Map<string, { numDoor: number; sellOut: number }>>();
      const monthly = new Map(window.map((m) => [m, 0]));
      for (const x of list) {
        const segs = zonesMap.get(x.starsZone) ?? new Map<string, { numDoor: number; sellOut: number }>();
        zonesMap.set(x.starsZone, segs);
        const cell = segs.get(x.customerSegmentation) ?? { numDoor: 0, sellOut: 0 };
        // Doors are a count of stores, not a flow: the window's largest count, not the sum.
        cell.numDoor = Math.max(cell.numDoor, x.numDoor);
        cell.sellOut += x.sellOut;
        segs.set(x.customerSegmentation, cell);
        monthly.set(x.monthId, (monthly.get(x.monthId) ?? 0) + x.sellOut);
      }
      const starZoneList = [...zonesMap.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([starZone, segs]) => {
          const segmentationList = [...segs.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([segmentation, c]) => ({ segmentation, numDoor: c.numDoor, sellOut: c.sellOut }));
          return { starZone, numDoor: segmentationList.reduce((s, c) => s + c.numDoor, 0), segmentationList };
        });
      const sku = skuRows.get(upc);
      return {
        upc,
        model: sku?.model ?? '',
        color: sku?.color ?? '',
        size: sku?.size ?? '',
        sellOut: starZoneList.reduce((s, z) => s + z.segmentationList.reduce((t, c) => t + c.sellOut, 0), 0),
        numDoor: starZoneList.reduce((s, z) => s + z.numDoor, 0),
        starZoneList,
        monthly: window.map((monthId) => ({ monthId, sellOut: monthly.get(monthId) ?? 0 })),
      };
    })
    .sort((a, b) => b.sellOut - a.sellOut || a.upc.localeCompare(b.upc));
  return { upcList, months: window, status: messages.length ? messages.join(';') : null };
}

// ───────────────────────────── Active SKUs ─────────────────────────────

export async function searchActiveSkus(ctx: ServiceContext, q: ActiveSkuSearch): Promise<{ productDtoList: ActiveSku[] }> {
  const max = ctx.config.MAX_SEARCH_RESULTS;
  // The performance filters keep the SKUs that sold (sell-out > 0) in the chosen places during the
  // rolling window ending with the search month; without a month they have no window and are not applied.
  let sold: repo.PerformanceScope | null = null;
  if (q.monthId && narrowsByPlace(q)) {
    sold = await performanceScope(ctx, q, q.monthId);
    if (sold.zones?.length === 0 || sold.cells?.size === 0) return { productDtoList: [] };
  }
  const rows = await repo.searchSkus(ctx.db, q, max + 1, sold);
  if (rows.length > max) throw tooManyResults();
  const stats = q.monthId ? await repo.statsFor(ctx.db, rows.map((r) => r.upc), q.monthId) : new Map();
  return { productDtoList: rows.map((r) => ({ ...repo.toProductDto(r, stats.get(r.upc)), brand: r.brandCode, collection: r.collection })) };
}

// ───────────────────────────── Cluster analysis ─────────────────────────────

type Line = { upc: string; mustHave: boolean };

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((100 * part) / whole));
const round2 = (n: number) => Math.round(n * 100) / 100;

function parseFacing(text: string | null): { min: number | null; max: number | null } {
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text ?? '');
  if (m) return { min: Number(m[1]), max: Number(m[2]) };
  const n = Number(text);
  return text && Number.isFinite(n) ? { min: n, max: n } : { min: null, max: null };
}

/**
 * The clusters (same month) that carry the page's modules, with the assortment they would have if the
 * page's current compositions were saved: SKU counts, facing range, refresh against the same cluster a
 * month earlier, and average prices.
 */
export async function clusterAnalysis(
  ctx: ServiceContext,
  body: { modules: (ModuleKey & { productDtoList?: { upc: string; mustHave: boolean; moduleCompositionStatus: string }[] | undefined })[] },
): Promise<ClusterAnalysisItem[]> {
  const rows = await findModules(ctx.db, body.modules);
  const zones = await moduleZones(ctx.db, rows.map((r) => r.id));
  const visible = new Set(rows.filter((r) => canView(ctx.user.grants, { brand: r.brandCode, zones: zones.get(r.id) ?? [] })).map(moduleKeyString));
  const pageLines = new Map<string, Line[]>();
  for (const m of body.modules) {
    if (visible.has(moduleKeyString(m)) && m.productDtoList) pageLines.set(moduleKeyString(m), m.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED'));
  }
  const out: ClusterAnalysisItem[] = [];
  const monthIds = [...new Set(body.modules.filter((m) => visible.has(moduleKeyString(m))).map((m) => m.monthId))];
  for (const monthId of monthIds) {
    const names = body.modules.filter((m) => m.monthId === monthId && visible.has(moduleKeyString(m))).map((m) => m.moduleName);
    const found = await repo.clustersWithModules(ctx.db, monthId, names);
    if (found.length === 0) continue;
    const allNames = [...new Set(found.flatMap((c) => c.modules))];
    const saved = new Map<string, Line[]>();
    for (const l of await repo.activeLines(ctx.db, allNames, [monthId])) saved.set(l.moduleName, [...(saved.get(l.moduleName) ?? []), l]);
    const linesOf = (name: string) => pageLines.get(moduleKeyString({ moduleName: name, monthId })) ?? saved.get(name) ?? [];

    const previousMonth = addMonths(monthId, -1);
    const before = await repo.clusterModulesIn(ctx.db, previousMonth, found.map((c) => c.row.clusterId));
    const beforeNames = [...new Set([...before.values()].flat())];
    const beforeLines = new Map<string, Line[]>();
    for (const l of await repo.activeLines(ctx.db, beforeNames, [previousMonth])) beforeLines.set(l.moduleName, [...(beforeLines.get(l.moduleName) ?? []), l]);

    const allUpcs = new Set(found.flatMap((c) => c.modules.flatMap((n) => linesOf(n).map((l) => l.upc))));
    const skuRows = await repo.skusByUpc(ctx.db, [...allUpcs]);

    for (const c of found) {
      const mh = new Set<string>();
      const any = new Set<string>();
      for (const n of c.modules) {
        for (const l of linesOf(n)) {
          any.add(l.upc);
          if (l.mustHave) mh.add(l.upc);
        }
      }
      const el = [...any].filter((u) => !mh.has(u));
      const previous = before.get(c.row.clusterId);
      const prevUpcs = new Set(previous?.flatMap((n) => (beforeLines.get(n) ?? []).map((l) => l.upc)) ?? []);
      const fresh = (list: string[]) => (previous ? percent(list.filter((u) => !prevUpcs.has(u)).length, list.length) : 0);
      const prices = [...any].map((u) => skuRows.get(u)).filter((s) => !!s);
      const facing = parseFacing(c.row.rangeFacing);
      out.push({
        clusterId: c.row.clusterId,
        clusterLabel: c.row.clusterLabel,
        monthId,
        doors: c.doors,
        mh: mh.size,
        el: el.length,
        mhandEL: any.size,
        minFacing: facing.min,
        maxFacing: facing.max,
        refreshMH: fresh([...mh]),
        refreshEL: fresh(el),
        refreshMHandEL: fresh([...any]),
        avgPrice: prices.length ? round2(prices.reduce((s, p) => s + p.whsprice, 0) / prices.length) : 0,
        avgSRPPrice: prices.length ? round2(prices.reduce((s, p) => s + p.srp, 0) / prices.length) : 0,
        modules: c.modules,
      });
    }
  }
  return out;
}

// ───────────────────────────── Newness ─────────────────────────────

/** The modules of these keys the caller may view (unknown and hidden ones are left out). */
export async function visibleRows(ctx: ServiceContext, keys: readonly ModuleKey[]) {
  const rows = await findModules(ctx.db, keys);
  const zones = await moduleZones(ctx.db, rows.map((r) => r.id));
  return rows.filter((r) => canView(ctx.user.grants, { brand: r.brandCode, zones: zones.get(r.id) ?? [] }));
}

/** LEGO newness: SKUs of the modules that the product data flags as new (flagN), or newness-advance (flagNewAdv) when flagNew is false. */
export async function newnessLego(ctx: ServiceContext, keys: readonly ModuleKey[], flagNew: boolean): Promise<NewnessResponse> {
  const rows = await visibleRows(ctx, keys);
  const lines = await repo.activeLines(ctx.db, [...new Set(rows.map((r) => r.moduleName))], [...new Set(rows.map((r) => r.monthId))]);
  const skuRows = await repo.skusByUpc(ctx.db, [...new Set(lines.map((l) => l.upc))]);
  return rows.map((r) => ({
    moduleName: r.moduleName,
    monthId: r.monthId,
    upcList: lines
      .filter((l) => l.moduleName === r.moduleName && l.monthId === r.monthId)
      .filter((l) => (flagNew ? skuRows.get(l.upc)?.flagN : skuRows.get(l.upc)?.flagNewAdv))
      .map((l) => l.upc),
  }));
}

/** Not-LEGO newness: SKUs of the modules that entered the module in `currentMonthId` (absent the month before) and are still in it. */
export async function newnessNotLego(ctx: ServiceContext, keys: readonly ModuleKey[], currentMonthId: string): Promise<NewnessResponse> {
  const rows = await visibleRows(ctx, keys);
  const names = [...new Set(rows.map((r) => r.moduleName))];
  const previous = addMonths(currentMonthId, -1);
  const lines = await repo.activeLines(ctx.db, names, [...new Set([...rows.map((r) => r.monthId), currentMonthId, previous])]);
  const set = (name: string, month: string) => new Set(lines.filter((l) => l.moduleName === name && l.monthId === month).map((l) => l.upc));
  return rows.map((r) => {
    const then = set(r.moduleName, currentMonthId);
    const before = set(r.moduleName, previous);
    const now = set(r.moduleName, r.monthId);
    return { moduleName: r.moduleName, monthId: r.monthId, upcList: [...now].filter((u) => then.has(u) && !before.has(u)) };
  });
}

// ───────────────────────────── SKU info ─────────────────────────────

export async function publishedProductModule(
  ctx: ServiceContext,
  q: { monthId: string; model: string; color: string; size: string; materialCode: string; skuCode: string },
) {
  const found = await repo.publishedModulesOf(ctx.db, q.monthId, q);
  const zones = await moduleZones(ctx.db, found.map((f) => f.moduleId));
  return found
    .filter((f) => canView(ctx.user.grants, { brand: f.brandCode, zones: zones.get(f.moduleId) ?? [] }))
    .map((f) => ({
      moduleName: f.moduleName,
      moduleLabel: f.moduleLabel,
      monthId: f.monthId,
      mustHave: f.mustHave,
      publicationDate: f.publicationDate ? f.publicationDate.toISOString() : null,
    }));
}

export async function extraSellIn(ctx: ServiceContext, q: { moduleName: string; monthId: string; materialCode: string; skuCode: string }): Promise<number> {
  await viewableModule(ctx, q);
  return repo.extraSellInOf(ctx.db, q.monthId, q.materialCode, q.skuCode);
}
