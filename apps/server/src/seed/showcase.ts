/**
 * The publish showcase: in every open month the demo holds, on purpose,
 * - clusters that can be published as they stand (WIP, with stores, every ADDED module SUBMITTED and
 *   none of those modules holding a SKU that SAP disabled),
 * - a cluster blocked by a WIP module (publishing it answers modulesInWip),
 * - a WIP module with a SAP-disabled SKU (sap_status Z or I: the planning system rejects it, see
 *   planningSystemChecks in items/lifecycle/planning-gateway.ts),
 * so that every publish flow can be shown on the demo data. The plan is made from the definitions
 * before any row is written; it forces statuses over the drawn ones (without changing any random
 * stream, so the rest of the world stays as it was) and sets the SAP status of a few SKUs.
 */
import type { ClusterCompositions, ClusterDef } from './clusters.js';
import { lockKey, type LockRow } from './locks-and-deletions.js';
import { itemMonthKey, moduleLife, type ModuleDef } from './modules.js';
import type { MonthRow } from './reference-data.js';
import { isSapDisabled, SAP_DISABLED_STATUSES } from '../items/lifecycle/publish-checks.js';
import { Rng } from './random.js';
import type { SkuInfo } from './skus.js';
import { SUBMITTER_BRANDS, SUBMITTER_ZONES } from './users.js';


/**
 * The browser tests (apps/web/e2e) edit and publish NRD and MRA modules and clusters and expect them as
 * drawn: the showcase stays in the other brands.
 */
const SHOWCASE_BRANDS: readonly string[] = ['AUR', 'SLN', 'VLT'];
const PUBLISHABLE_PER_MONTH = 2;

interface ShowcaseMonth {
  monthId: string;
  /** WIP clusters whose ADDED modules are all SUBMITTED and free of SAP-disabled SKUs. */
  publishable: string[];
  /** A WIP cluster with a WIP ADDED module. */
  blocked: { clusterId: string; moduleName: string };
  /** A WIP module with a SAP-disabled SKU (ADDED or NEW). */
  sapDisabled: { moduleName: string; upc: string; sapStatus: string };
}

interface Showcase {
  months: ShowcaseMonth[];
  /** Forced module statuses by itemMonthKey(moduleName, monthIndex). */
  moduleStatus: Map<string, 'SUBMITTED' | 'WIP'>;
  /** Clusters kept WIP, by itemMonthKey(clusterId, monthIndex). */
  clusterWip: Set<string>;
  /** SKUs whose SAP status the plan changed (cleaned in publishable modules, or disabled). */
  changedSkus: number;
}

const isDisabled = (sku: SkuInfo) => isSapDisabled(sku.row.sapStatus);

/**
 * Plans the showcase of every open month. Mutates the SAP status of the SKUs it needs (so call it
 * before the SKUs are written).
 */
export function planShowcase(
  seed: number,
  months: readonly MonthRow[],
  moduleDefs: readonly ModuleDef[],
  clusterDefs: readonly ClusterDef[],
  compositions: ClusterCompositions,
  locks: readonly LockRow[],
): Showcase {
  const defByName = new Map(moduleDefs.map((d) => [d.name, d]));
  const locked = new Set(locks.map((l) => lockKey(l.itemType, l.itemKey, l.monthId)));
  const lives = new Map<string, { active: SkuInfo[]; all: SkuInfo[] }[]>();
  /** The SKUs of a module in month m: active ones (ADDED/NEW) and all (bin included). */
  const skusAt = (def: ModuleDef, m: number) => {
    let life = lives.get(def.name);
    if (!life) {
      life = [];
      for (const month of moduleLife(seed, months, def)) {
        const active = month.members.map((x) => x.sku);
        life[month.m] = { active, all: [...active, ...month.bin.map((x) => x.sku)] };
      }
      lives.set(def.name, life);
    }
    return life[m]!;
  };
  const alive = (item: { start: number; end: number; deleteFrom: number | null }, m: number) =>
    item.start <= m && m <= item.end && (item.deleteFrom === null || m < item.deleteFrom);
  const inScope = (brand: string, zones: readonly string[]) =>
    (SUBMITTER_BRANDS as readonly string[]).includes(brand) && zones.some((z) => (SUBMITTER_ZONES as readonly string[]).includes(z));
  /** Seeded order with the submitter's scope first (the demo's narrowest account can then try each flow). */
  const order = <T>(rng: Rng, items: readonly T[], scoped: (item: T) => boolean) => {
    const shuffled = rng.shuffle(items);
    return [...shuffled.filter(scoped), ...shuffled.filter((x) => !scoped(x))];
  };

  const moduleStatus = new Map<string, 'SUBMITTED' | 'WIP'>();
  const clusterWip = new Set<string>();
  const open = months.filter((m) => m.open);
  const showcaseClusters = clusterDefs.filter((d) => SHOWCASE_BRANDS.includes(d.brand.code));
  const showcaseModules = moduleDefs.filter((d) => SHOWCASE_BRANDS.includes(d.brand.code));
  const changed = new Set<SkuInfo>();

  // 1. Publishable clusters: the candidates with the fewest SAP-disabled SKUs (ideally none), whose
  // disabled SKUs are then enabled. Their SKUs are kept clean in every month (step 3 disables no other).
  const protectedSkus = new Set<SkuInfo>();
  const publishable = new Map<number, ClusterDef[]>();
  for (const month of open) {
    const m = month.index;
    const rng = Rng.for(seed, 'showcase-publishable', month.monthId);
    const candidates = order(rng, showcaseClusters, (d) => inScope(d.brand.code, d.zones))
      .filter((d) => alive(d, m) && !locked.has(lockKey('cluster', d.clusterId, month.monthId)))
      .map((def) => {
        const added = compositions.added(def, m).map((name) => defByName.get(name)!);
        const skus = added.flatMap((mod) => skusAt(mod, m).all);
        return { def, added, skus, dirty: new Set(skus.filter(isDisabled)).size };
      })
      .filter((c) => c.added.length > 0 && c.def.stores.length > 0 && c.added.every((mod) => !locked.has(lockKey('module', mod.name, month.monthId))));
    // Stable: equally dirty candidates keep their seeded order.
    candidates.sort((p, q) => p.dirty - q.dirty);
    const chosen = candidates.slice(0, PUBLISHABLE_PER_MONTH);
    if (chosen.length === 0) throw new Error(`Demo data: no cluster can be made publishable in ${month.monthId}`);
    for (const c of chosen) {
      clusterWip.add(itemMonthKey(c.def.clusterId, m));
      for (const mod of c.added) moduleStatus.set(itemMonthKey(mod.name, m), 'SUBMITTED');
      for (const sku of c.skus) {
        protectedSkus.add(sku);
        if (isDisabled(sku)) {
          sku.row.sapStatus = null;
          changed.add(sku);
        }
      }
    }
    publishable.set(m, chosen.map((c) => c.def));
  }

  const result: ShowcaseMonth[] = [];
  for (const month of open) {
    const m = month.index;
    const chosen = publishable.get(m)!;
    const forcedSubmitted = (name: string) => moduleStatus.get(itemMonthKey(name, m)) === 'SUBMITTED';

    // 2. A cluster blocked by a WIP module: another brand and collection than the publishable ones
    // (clusters share the modules of their brand and collection).
    const taken = new Set(chosen.map((d) => `${d.brand.code}|${d.collection}`));
    const rngBlocked = Rng.for(seed, 'showcase-blocked', month.monthId);
    const blocked = order(rngBlocked, showcaseClusters, (d) => inScope(d.brand.code, d.zones))
      .filter((d) => alive(d, m) && !taken.has(`${d.brand.code}|${d.collection}`) && !locked.has(lockKey('cluster', d.clusterId, month.monthId)))
      .map((def) => ({ def, module: compositions.added(def, m).find((name) => !forcedSubmitted(name)) }))
      .find((c) => c.module !== undefined);
    if (!blocked) throw new Error(`Demo data: no cluster can be blocked by a WIP module in ${month.monthId}`);
    clusterWip.add(itemMonthKey(blocked.def.clusterId, m));
    moduleStatus.set(itemMonthKey(blocked.module!, m), 'WIP');

    // 3. A WIP module with a SAP-disabled SKU: one that has such a SKU already, else one whose SKU the
    // plan disables (never a SKU of a publishable cluster).
    const rngSap = Rng.for(seed, 'showcase-sap', month.monthId);
    const modules = order(rngSap, showcaseModules, (d) => inScope(d.brand.code, d.zones)).filter(
      (d) => alive(d, m) && !forcedSubmitted(d.name) && !locked.has(lockKey('module', d.name, month.monthId)),
    );
    let sap: ShowcaseMonth['sapDisabled'] | null = null;
    for (const def of modules) {
      const sku = skusAt(def, m).active.find(isDisabled);
      if (sku) {
        sap = { moduleName: def.name, upc: sku.row.upc, sapStatus: sku.row.sapStatus! };
        break;
      }
    }
    if (!sap) {
      for (const def of modules) {
        const free = skusAt(def, m).active.filter((s) => !protectedSkus.has(s));
        if (free.length === 0) continue;
        const sku = rngSap.pick(free);
        sku.row.sapStatus = rngSap.pick(SAP_DISABLED_STATUSES);
        changed.add(sku);
        sap = { moduleName: def.name, upc: sku.row.upc, sapStatus: sku.row.sapStatus };
        break;
      }
    }
    if (!sap) throw new Error(`Demo data: no module can hold a SAP-disabled SKU in ${month.monthId}`);
    moduleStatus.set(itemMonthKey(sap.moduleName, m), 'WIP');

    result.push({
      monthId: month.monthId,
      publishable: chosen.map((d) => d.clusterId),
      blocked: { clusterId: blocked.def.clusterId, moduleName: blocked.module! },
      sapDisabled: sap,
    });
  }
  return { months: result, moduleStatus, clusterWip, changedSkus: changed.size };
}
