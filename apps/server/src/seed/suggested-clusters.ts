/**
 * Suggested clusters: store groupings proposed from the front office for an open month, waiting
 * for approval (PENDING) or turned down (REJECTED, with the reason).
 */
import type * as schema from '../db/schema.js';
import type { BatchWriters } from './batch-writer.js';
import type { ClusterDef } from './clusters.js';
import { groupKey, type ModuleInMonth } from './modules.js';
import {
  BRANDS,
  COLLECTIONS,
  COUNTRIES,
  dateInMonth,
  FIRST_OPEN_INDEX,
  MONTH_COUNT,
  type MonthRow,
  type StoreRow,
} from './reference-data.js';
import { Rng } from './random.js';

type SuggestionWriters = BatchWriters<Pick<typeof schema, 'suggestedClusters' | 'suggestedClusterStores' | 'suggestedClusterModules'>>;

const REJECTION_REASONS = [
  'Store mix does not match the brand distribution policy',
  'Too many modules for the size of these stores',
  'Duplicate of an existing cluster',
  'Stores belong to different segmentations',
];

export async function writeSuggestedClusters(
  seed: number,
  scale: number,
  months: readonly MonthRow[],
  storesByCountry: ReadonlyMap<string, StoreRow[]>,
  clusterDefs: readonly ClusterDef[],
  modulesByMonthGroup: ReadonlyMap<string, ModuleInMonth[]>,
  writers: SuggestionWriters,
): Promise<void> {
  const rng = Rng.for(seed, 'suggested-clusters');
  const count = Math.max(6, Math.round(30 * Math.sqrt(scale)));
  const countriesWithStores = COUNTRIES.filter((c) => (storesByCountry.get(c.countryCode)?.length ?? 0) > 0);
  for (let i = 0; i < count; i++) {
    const brand = rng.pick(BRANDS);
    const collection = rng.pick(COLLECTIONS);
    const month = months[rng.int(FIRST_OPEN_INDEX, MONTH_COUNT - 1)]!;
    const modules = (modulesByMonthGroup.get(groupKey(month.index, brand.code, collection.code)) ?? []).filter((m) => !m.deleted);
    const country = rng.pick(countriesWithStores);
    const stores = rng.sample(storesByCountry.get(country.countryCode)!, rng.int(3, 12));
    const sameGroup = clusterDefs.filter((d) => d.brand.code === brand.code && d.collection === collection.code);
    const original =
      sameGroup.find((d) => d.countries.includes(country.countryCode)) ??
      sameGroup.find((d) => d.zones.includes(country.starsZone)) ??
      sameGroup[0] ??
      null;
    const rejected = i % 5 === 4;
    const assortmentId = `SUG_${month.year}_${String(i + 1).padStart(4, '0')}`;
    await writers.suggestedClusters.add({
      assortmentId,
      originalAssortment: original?.clusterId ?? `${brand.code}_${collection.nameToken}_${country.starsZone}_00`,
      releaseId: month.releaseId,
      monthId: month.monthId,
      brandCode: brand.code,
      collection: collection.code,
      country: country.countryCode,
      userSuggest: `buyer.${stores[0]!.starsCustomer.toLowerCase()}@example.com`,
      dateSuggest: dateInMonth(months[Math.max(0, month.index - 1)]!, rng.int(1, 28)).toISOString().slice(0, 10),
      period: `${month.month <= 6 ? 'SS' : 'FW'} ${month.year}`,
      status: rejected ? 'REJECTED' : 'PENDING',
      message: rejected ? rng.pick(REJECTION_REASONS) : null,
      decidedBy: rejected ? 'creator' : null,
      decidedAt: rejected ? dateInMonth(months[FIRST_OPEN_INDEX]!, 10 + (i % 15), 15) : null,
    });
    for (const store of stores) {
      await writers.suggestedClusterStores.add({
        assortmentId,
        storeJda: store.storeJda,
        starsCustomer: store.starsCustomer,
        customerSegmentation: store.customerSegmentation,
      });
    }
    const chosen = rng.shuffle(modules);
    const picked = chosen.slice(0, rng.int(3, 8));
    const spare = chosen.slice(picked.length);
    for (const [k, mod] of picked.entries()) {
      const foType = i % 4 === 1 && k === 0 ? 'OTHER' : rng.weighted([
        ['SWITCH', 40],
        ['NOT SWITCH', 45],
        ['OTHER', 15],
      ] as const);
      await writers.suggestedClusterModules.add({
        assortmentId,
        moduleName: mod.name,
        foType,
        moduleNameSwitch: foType === 'SWITCH' ? (spare[k % Math.max(1, spare.length)]?.name ?? null) : null,
        added: foType !== 'OTHER' && rng.chance(0.5),
      });
    }
  }
}
