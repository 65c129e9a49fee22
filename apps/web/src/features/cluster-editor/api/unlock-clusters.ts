import type { ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';
import { getSession } from '@/lib/session';

/** POST /api/cluster/unlock: releases the caller's own locks. */
export function unlockClusters(keys: readonly ClusterKey[]) {
  return api.post('/cluster/unlock', keys, { alertOnError: false }).catch(() => undefined);
}

/**
 * The same call for a closing tab: a keepalive fetch outlives the page and, unlike sendBeacon,
 * carries the Authorization header (writes need it; the cookie is accepted for reads only).
 */
export function unlockClustersOnExit(keys: readonly ClusterKey[]): void {
  const token = getSession().token;
  if (!token || keys.length === 0) return;
  void fetch('/api/cluster/unlock', {
    method: 'POST',
    keepalive: true,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(keys),
  }).catch(() => undefined);
}
