import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { clusterScopes, clusterZonesArray, findClusters, findClustersGated, liveClusterVersions, type ClusterRef, type ClusterRow } from './clusters.repository.js';
import { splitGated } from '../lifecycle/item-gate.repository.js';
import type { ItemKind } from '../lifecycle/item-kind.js';

const toClusterRef = (k: { itemKey: string; monthId: string }): ClusterRef => ({ clusterId: k.itemKey, monthId: k.monthId });

/** A cluster: keyed by (clusterId, monthId); scope = its brand and the stars zones of its countries. */
export const clusterKind: ItemKind<ClusterRow> = {
  type: 'cluster',
  keyOf: (row) => ({ itemKey: row.clusterId, monthId: row.monthId }),
  findLive: (db, keys, forUpdate) => findClusters(db, keys.map(toClusterRef), forUpdate),
  liveVersions: liveClusterVersions,
  scopes: clusterScopes,
  zonesOf: clusterZonesArray,
  findLiveGated: async (db, keys, ttlMinutes) => splitGated(clusterKind, await findClustersGated(db, keys.map(toClusterRef), ttlMinutes), keys),
  texts: {
    submitInProgress: CLUSTER_TEXTS.submitInProgress,
    monthClosed: CLUSTER_TEXTS.monthClosed,
    releaseClosed: CLUSTER_TEXTS.releaseClosed,
    notLocked: CLUSTER_TEXTS.clusterNotLocked,
    notLockedKey: 'clusterNotLocked',
    mayNotUnlock: (keys) => `You may not unlock the cluster(s) ${keys.join(', ')}`,
    monthsNotFound: (id, monthId) => `The cluster ${id} does not exist${monthId ? ` in ${monthId}` : ''}`,
    mayNotView: (id) => `You may not see the cluster ${id}`,
  },
};
