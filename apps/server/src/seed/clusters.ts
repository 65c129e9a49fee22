/**
 * Clusters: per brand and collection a handful of store groups (countries of one stars zone, with
 * LIAs and classifications) that recur month after month with a slowly changing store list and the
 * modules of that month that serve their zones.
 */
import type * as schema from '../db/schema.js';
import type { BatchWriters } from './batch-writer.js';
import { groupKey, itemMonthKey, zoneMaskOf, type ModuleInMonth } from './modules.js';
import {
  BRANDS,
  CHANNEL_WEIGHTS,
  CLIENT_CLASSIFICATIONS,
  COLLECTIONS,
  COUNTRIES,
  dateInMonth,
  FIRST_OPEN_INDEX,
  LIAS,
  MONTH_COUNT,
  type Brand,
  type CollectionCode,
  type MonthRow,
  type StoreRow,
} from './reference-data.js';
import { hashString, Rng } from './random.js';

export interface ClusterDef {
  clusterId: string;
  label: string;
  description: string;
  brand: Brand;
  collection: CollectionCode;
  zones: string[];
  countries: string[];
  planningChannelId: string;
  liaCodes: string[];
  classificationIds: number[];
  start: number;
  end: number;
  deleteFrom: number | null;
  rangeFacing: string;
  stores: StoreRow[];
  storeCount: number;
  moduleCount: number;
}

type ClusterWriters = BatchWriters<
  Pick<typeof schema, 'clusters' | 'clusterCountries' | 'clusterStarsZones' | 'clusterStores' | 'clusterLias' | 'clusterClassifications' | 'clusterModules'>
>;

const CLUSTER_ID = /^[A-Za-z0-9_]{1,20}$/;
const CLUSTER_LABEL = /^[A-Za-z0-9 ]{1,40}$/;
const AREA_NAMES: Record<string, string> = {
  EU: 'Europe',
  NA: 'North America',
  LATAM: 'Latam',
  APAC: 'Asia Pacific',
  MEA: 'Middle East',
};
const TIERS = ['Premium', 'Core', 'Travel', 'Outlet', 'Flagship', 'Urban'];
const ZONE_WEIGHTS: readonly (readonly [string, number])[] = [
  ['EU', 3],
  ['NA', 2],
  ['LATAM', 1],
  ['APAC', 1],
  ['MEA', 0.7],
];

export function storesByCountry(stores: readonly StoreRow[]): Map<string, StoreRow[]> {
  const map = new Map<string, StoreRow[]>();
  for (const store of stores) {
    let list = map.get(store.countryCode);
    if (!list) map.set(store.countryCode, (list = []));
    list.push(store);
  }
  return map;
}

export function generateClusterDefs(seed: number, scale: number, stores: readonly StoreRow[]): ClusterDef[] {
  const byCountry = storesByCountry(stores);
  const defs: ClusterDef[] = [];
  for (const brand of BRANDS) {
    for (const collection of COLLECTIONS) {
      const rng = Rng.for(seed, 'cluster-defs', brand.code, collection.code);
      const count = Math.max(2, Math.round(rng.int(3, 6) * scale));
      const digits = count > 900 ? 4 : count > 90 ? 3 : 2;
      const perZone = new Map<string, number>();
      for (let i = 0; i < count; i++) {
        const zone = rng.weighted(ZONE_WEIGHTS);
        const n = (perZone.get(zone) ?? 0) + 1;
        perZone.set(zone, n);
        const nn = String(n).padStart(digits, '0');
        const tier = rng.pick(TIERS);
        const clusterId = `${brand.code}_${collection.nameToken}_${zone}_${nn}`;
        const label = `${brand.code} ${collection.code === 'SUN' ? 'Sun' : 'Optical'} ${AREA_NAMES[zone]} ${tier} ${nn}`;
        if (!CLUSTER_ID.test(clusterId)) throw new Error(`Bad cluster id ${clusterId}`);
        if (!CLUSTER_LABEL.test(label)) throw new Error(`Bad cluster label ${label}`);

        const zoneCountries = COUNTRIES.filter((c) => c.starsZone === zone);
        const countries = rng.sample(zoneCountries, rng.int(1, Math.min(3, zoneCountries.length))).map((c) => c.countryCode);
        if (rng.chance(0.15)) {
          const other = rng.pick(COUNTRIES.filter((c) => c.starsZone !== zone));
          countries.push(other.countryCode);
        }
        countries.sort();
        const zones = [...new Set(countries.map((code) => COUNTRIES.find((c) => c.countryCode === code)!.starsZone))].sort();
        let pool = countries.flatMap((c) => byCountry.get(c) ?? []);
        if (pool.length === 0) pool = stores.slice();
        const channel = rng.weighted(CHANNEL_WEIGHTS);
        const channelLias = LIAS.filter((l) => l.planningChannelId === channel);
        const minFacing = rng.int(8, 16);
        const start = rng.chance(0.7) ? 0 : rng.int(1, MONTH_COUNT - 4);
        const names = countries.map((code) => COUNTRIES.find((c) => c.countryCode === code)!.name);
        defs.push({
          clusterId,
          label,
          description: `${tier} ${collection.code === 'SUN' ? 'sun' : 'optical'} doors in ${names.join(', ')}`.slice(0, 100),
          brand,
          collection: collection.code,
          zones,
          countries,
          planningChannelId: channel,
          liaCodes: rng.sample(channelLias.length ? channelLias : LIAS, rng.int(1, 2)).map((l) => l.liaCode),
          classificationIds: rng
            .sample(
              CLIENT_CLASSIFICATIONS.map((_, k) => k + 1),
              rng.weighted([
                [0, 3],
                [1, 4],
                [2, 2],
              ]),
            )
            .sort((a, b) => a - b),
          start,
          end: rng.chance(0.9) ? MONTH_COUNT - 1 : rng.int(Math.min(MONTH_COUNT - 1, start + 2), MONTH_COUNT - 1),
          deleteFrom: null,
          rangeFacing: `${minFacing}-${minFacing + rng.int(4, 10)}`,
          stores: rng.shuffle(pool),
          storeCount: Math.min(pool.length, rng.int(5, 40)),
          moduleCount: rng.int(4, 12),
        });
      }
    }
  }
  return defs;
}

/** Marks one or two clusters that live in open months as deleted from some open month on. */
export function chooseClusterDeletions(seed: number, scale: number, defs: ClusterDef[]): ClusterDef[] {
  const rng = Rng.for(seed, 'cluster-deletions');
  const eligible = defs.filter((d) => d.end > FIRST_OPEN_INDEX + 1);
  const chosen = rng.sample(eligible, Math.max(1, Math.min(20, Math.round(2 * Math.sqrt(scale)))));
  for (const def of chosen) def.deleteFrom = rng.int(Math.max(def.start, FIRST_OPEN_INDEX + 1), def.end);
  return chosen;
}

const RPAS_ERRORS = ['Door count below minimum', 'Range facing below must have count', 'Price missing;Door count below minimum'];

/**
 * The modules each cluster carries month by month: those of the month that serve its zones (any module
 * of the month if none does), in a fixed per-cluster priority, so the same modules stay month after month.
 * Depends on the definitions alone, so the showcase plan can see it before anything is written.
 */
export class ClusterCompositions {
  private readonly monthModules = new Map<string, Map<string, ModuleInMonth>>();
  private readonly groupNames = new Map<string, Set<string>>();
  private readonly rankings = new Map<string, string[]>();

  constructor(modulesByMonthGroup: ReadonlyMap<string, ModuleInMonth[]>) {
    for (const [key, list] of modulesByMonthGroup) {
      this.monthModules.set(key, new Map(list.map((mod) => [mod.name, mod])));
      const group = key.slice(key.indexOf('|') + 1);
      let names = this.groupNames.get(group);
      if (!names) this.groupNames.set(group, (names = new Set()));
      for (const mod of list) names.add(mod.name);
    }
  }

  private ranked(def: ClusterDef): string[] {
    let ranked = this.rankings.get(def.clusterId);
    if (!ranked) {
      ranked = [...(this.groupNames.get(`${def.brand.code}|${def.collection}`) ?? [])]
        .map((name) => ({ name, priority: hashString(`${def.clusterId}|${name}`) }))
        .sort((p, q) => p.priority - q.priority || (p.name < q.name ? -1 : 1))
        .map((r) => r.name);
      this.rankings.set(def.clusterId, ranked);
    }
    return ranked;
  }

  /** Up to moduleCount + 1 module names: the first moduleCount are ADDED, the one after may sit in the bin. */
  chosen(def: ClusterDef, m: number): string[] {
    const mask = zoneMaskOf(def.zones);
    const present = this.monthModules.get(groupKey(m, def.brand.code, def.collection)) ?? new Map<string, ModuleInMonth>();
    const pick = (zoneMatch: boolean): string[] => {
      const out: string[] = [];
      for (const name of this.ranked(def)) {
        const mod = present.get(name);
        if (mod && !mod.deleted && (!zoneMatch || mod.zoneMask & mask)) out.push(name);
        if (out.length > def.moduleCount) break;
      }
      return out;
    };
    const chosen = pick(true);
    return chosen.length ? chosen : pick(false);
  }

  /** The ADDED modules of the cluster in month m. */
  added(def: ClusterDef, m: number): string[] {
    return this.chosen(def, m).slice(0, def.moduleCount);
  }
}

/** Clusters a showcase forces to WIP in a month (`${clusterId}|${monthIndex}`, see itemMonthKey). */
type ClusterWipOverrides = ReadonlySet<string>;

export async function writeClusters(
  seed: number,
  months: readonly MonthRow[],
  defs: readonly ClusterDef[],
  compositions: ClusterCompositions,
  forcedWip: ClusterWipOverrides,
  writers: ClusterWriters,
): Promise<void> {
  let id = 0;
  for (const def of defs) {
    const rng = Rng.for(seed, 'cluster-life', def.clusterId);
    let storeCount = def.storeCount;
    let rotation = 0;
    for (let m = def.start; m <= def.end; m++) {
      const month = months[m]!;
      if (m > def.start && rng.chance(0.3)) {
        // A store opens or leaves now and then; occasionally one is swapped for another.
        const delta = rng.pick([-1, 1, 1]);
        storeCount = Math.max(Math.min(def.stores.length, 3), Math.min(def.stores.length, storeCount + delta));
        if (rng.chance(0.3) && def.stores.length > storeCount) rotation++;
      }
      id++;
      const drawn = month.open ? rng.chance(0.25) : rng.chance(0.85);
      const publishDay = drawn ? rng.int(20, 28) : null;
      const rpasError = !drawn && month.open && rng.chance(0.08) ? rng.pick(RPAS_ERRORS) : null;
      const updateDay = drawn ? null : rng.int(2, 19);
      const updatedBy = rng.pick(['creator', 'editor', 'submitter', 'admin']);
      // A cluster the showcase needs in WIP stays WIP (the draws above are made all the same).
      const submitted = drawn && !forcedWip.has(itemMonthKey(def.clusterId, m));
      const previous = months[Math.max(0, m - 1)]!;
      const published = submitted ? dateInMonth(previous, publishDay!, 16) : null;
      await writers.clusters.add({
        id,
        clusterId: def.clusterId,
        monthId: month.monthId,
        clusterLabel: def.label,
        clusterDescription: def.description,
        brandCode: def.brand.code,
        collection: def.collection,
        planningChannelId: def.planningChannelId,
        releaseId: month.releaseId,
        status: submitted ? 'SUBMITTED' : 'WIP',
        rangeFacing: def.rangeFacing,
        rpasErrors: rpasError,
        publicationDate: published,
        deletionStatus: def.deleteFrom !== null && m >= def.deleteFrom ? 'DELETION_PENDING' : null,
        createdAfterDelete: false,
        approvedFrom: null,
        approvedBy: null,
        version: 1,
        createdAt: dateInMonth(months[Math.max(0, m - 2)]!, 5 + (id % 20)),
        createdBy: m === def.start ? 'creator' : 'admin',
        updatedAt: published ?? dateInMonth(previous, updateDay ?? 2 + (id % 18), 10),
        updatedBy,
      });
      for (const countryCode of def.countries) await writers.clusterCountries.add({ clusterPk: id, countryCode });
      for (const starsZone of def.zones) await writers.clusterStarsZones.add({ clusterPk: id, starsZone });
      for (let k = 0; k < storeCount; k++) {
        // the last place rotates through the stores not otherwise in the cluster
        const index = k < storeCount - 1 ? k : k + (rotation % (def.stores.length - storeCount + 1));
        await writers.clusterStores.add({ clusterPk: id, storeJda: def.stores[index]!.storeJda });
      }
      for (const liaCode of def.liaCodes) await writers.clusterLias.add({ clusterPk: id, liaCode });
      for (const classificationId of def.classificationIds) await writers.clusterClassifications.add({ clusterPk: id, classificationId });

      const chosen = compositions.chosen(def, m);
      for (const moduleName of chosen.slice(0, def.moduleCount)) await writers.clusterModules.add({ clusterPk: id, monthId: month.monthId, moduleName, status: 'ADDED' });
      const extra = chosen[def.moduleCount];
      if (extra && rng.chance(0.15)) await writers.clusterModules.add({ clusterPk: id, monthId: month.monthId, moduleName: extra, status: 'REMOVED' });
    }
  }
}
