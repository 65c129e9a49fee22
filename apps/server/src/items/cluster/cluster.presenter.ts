/**
 * The one answer shape of a cluster (`ClusterDto`): every call that answers clusters builds them here (the lifecycle's
 * details, save and publish answers, the creation's and the exports'; docs/ARCHITECTURE.md).
 */
import type { ClusterDto, ClusterModuleDto } from '@bo/shared/clusters';
import { itemKeyString } from '@bo/shared/item-keys';
import { compareMonthIds } from '@bo/shared/months';
import type { Queryable } from '../../db/client.js';
import { clusterAnswerRows, type ClusterRow } from './clusters.repository.js';

export interface ClusterDtoOptions {
  lockTtlMinutes: number;
}

/** Builds the cluster answers, in the order of `rows`, with a fixed number of queries per batch. */
export async function toClusterDtos(db: Queryable, rows: readonly ClusterRow[], opts: ClusterDtoOptions): Promise<ClusterDto[]> {
  if (rows.length === 0) return [];
  const { countryMap, zoneRows, storeRows, liaRows, classRows, moduleRows, skuTotals, lockMap, states, lego, presence, allLias, skuCounts } =
    await clusterAnswerRows(db, rows, opts.lockTtlMinutes);
  // LIAs offered: every LIA of the cluster's planning channel(s) — its own, its stores' and its LIAs'.
  const checked = new Map<number, Set<string>>();
  for (const l of liaRows) checked.set(l.clusterPk, (checked.get(l.clusterPk) ?? new Set()).add(l.liaCode));
  const channelOfLia = new Map(allLias.map((l) => [l.liaCode, l.planningChannelId]));
  const channels = new Map<number, Set<string>>();
  const addChannel = (pk: number, ch: string | null | undefined) => {
    if (ch) channels.set(pk, (channels.get(pk) ?? new Set()).add(ch));
  };
  for (const r of rows) addChannel(r.id, r.planningChannelId);
  for (const s of storeRows) addChannel(s.clusterPk, s.planningChannelId);
  for (const l of liaRows) addChannel(l.clusterPk, channelOfLia.get(l.liaCode));

  const group = <T extends { clusterPk: number }>(list: readonly T[]) => {
    const m = new Map<number, T[]>();
    for (const x of list) m.set(x.clusterPk, [...(m.get(x.clusterPk) ?? []), x]);
    return m;
  };
  const zonesBy = group(zoneRows);
  const storesBy = group(storeRows);
  const classesBy = group(classRows);
  const modulesBy = group(moduleRows);
  const legoSet = new Set(lego.map((l) => `${l.monthId}|${l.brandCode}|${l.collection}`));

  return rows.map((r) => {
    const lockOwner = lockMap.get(itemKeyString({ itemKey: r.clusterId, monthId: r.monthId })) ?? null;
    const state = states.get(r.monthId);
    const mine = checked.get(r.id) ?? new Set<string>();
    const offered = channels.get(r.id) ?? new Set<string>();
    const clusterStoresList = storesBy.get(r.id) ?? [];
    return {
      clusterId: r.clusterId,
      clusterLabel: r.clusterLabel,
      clusterDescription: r.clusterDescription,
      monthId: r.monthId,
      brandCode: r.brandCode,
      collection: r.collection,
      country: countryMap.get(r.id) ?? [],
      status: r.status as ClusterDto['status'],
      locked: lockOwner !== null,
      userLock: lockOwner,
      legoMonth: legoSet.has(`${r.monthId}|${r.brandCode}|${r.collection}`),
      stores: clusterStoresList.map((s) => ({
        storeJda: s.storeJda,
        codiceStoreSap: s.codiceStoreSap,
        name: s.name,
        starsCustomer: s.starsCustomer,
        customerSegmentation: s.customerSegmentation,
      })),
      lias: allLias
        .filter((l) => offered.has(l.planningChannelId) || mine.has(l.liaCode))
        .map((l) => ({ liaCode: l.liaCode, planningChannelId: l.planningChannelId, isChecked: mine.has(l.liaCode) })),
      classifications: (classesBy.get(r.id) ?? []).map((c) => ({ classificationId: c.classificationId, classificationLabel: c.label })),
      modules: (modulesBy.get(r.id) ?? []).map(
        (m): ClusterModuleDto => ({
          moduleName: m.moduleName,
          moduleLabel: m.moduleLabel,
          macroFamily: m.macroFamily,
          brand: m.brand,
          monthId: m.monthId,
          clusterId: r.clusterId,
          clusterCompositionStatus: m.status as ClusterModuleDto['clusterCompositionStatus'],
          status: m.moduleStatus as ClusterModuleDto['status'],
          length: skuCounts.get(`${r.id}|${m.moduleName}`)?.mh ?? 0,
          elLength: skuCounts.get(`${r.id}|${m.moduleName}`)?.el ?? 0,
          productDtoList: [],
        }),
      ),
      rangeFacing: r.rangeFacing,
      starZones: (zonesBy.get(r.id) ?? []).map((z) => z.starsZone),
      publicationDate: r.publicationDate ? r.publicationDate.toISOString() : null,
      rpasErrors: r.rpasErrors,
      months: [...(presence.get(r.clusterId) ?? [])].sort(compareMonthIds),
      door: clusterStoresList.length,
      totalSku: skuTotals.get(r.id) ?? 0,
      releaseClosed: state?.releaseClosed ?? false,
      inOpenMonth: state?.open ?? false,
      version: r.version,
    };
  });
}
