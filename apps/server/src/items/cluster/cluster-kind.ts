import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { clusterScopes, findClusters, liveClusterVersions, type ClusterRow } from './clusters.repository.js';
import type { ItemKind } from '../lifecycle/item-kind.js';

/** A cluster: keyed by (clusterId, monthId); scope = its brand and the stars zones of its countries. */
export const clusterKind: ItemKind<ClusterRow> = {
  type: 'cluster',
  keyOf: (row) => ({ itemKey: row.clusterId, monthId: row.monthId }),
  findLive: (db, keys, forUpdate) => findClusters(db, keys.map((k) => ({ clusterId: k.itemKey, monthId: k.monthId })), forUpdate),
  liveVersions: liveClusterVersions,
  scopes: clusterScopes,
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
