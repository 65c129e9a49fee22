import { MAX_OPEN_CLUSTERS } from '@bo/shared/cluster-editor';
import { uniqueKeys } from '@bo/shared/item-keys';
import type { ClusterKey } from '@bo/shared/clusters';
import { keyOf, parseKey } from './composition';

/**
 * The clusters the URL opens: `?clusterId=C1&monthId=M01_2027` (a new tab) or, from home,
 * `?clusters=C1|M01_2027,C2|M01_2027` (at most 30; docs/web-app.md).
 */
export function clusterKeysFromSearch(params: URLSearchParams): ClusterKey[] {
  const keys: ClusterKey[] = [];
  const single = { clusterId: params.get('clusterId'), monthId: params.get('monthId') };
  if (single.clusterId && single.monthId) keys.push({ clusterId: single.clusterId, monthId: single.monthId });
  for (const part of (params.get('clusters') ?? '').split(',')) {
    if (!part.includes('|')) continue;
    const { clusterId, monthId } = parseKey(part);
    if (clusterId && monthId) keys.push({ clusterId, monthId });
  }
  return uniqueKeys(keys, keyOf).slice(0, MAX_OPEN_CLUSTERS);
}
