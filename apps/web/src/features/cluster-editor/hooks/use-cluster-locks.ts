import { useEffect, useRef, useState } from 'react';
import type { ClusterKey } from '@bo/shared/clusters';
import { lockClusters } from '../api/lock-clusters';
import { unlockClusters, unlockClustersOnExit } from '../api/unlock-clusters';
import { keyOf } from '../logic/composition';

export interface LockState {
  acquired: boolean;
  userLock: string | null;
}

/** Renewal period: well inside LOCK_TTL_MINUTES (default 120), so an open page never loses its locks. */
const RENEW_MS = 4 * 60_000;

/**
 * Locks the open clusters (part 2 §4 "Locking"): taken on opening, renewed every few minutes, released on
 * leaving the screen, and on closing the tab with a keepalive request.
 */
export function useClusterLocks(keys: readonly ClusterKey[]) {
  const [locks, setLocks] = useState<Record<string, LockState> | null>(null);
  const held = useRef<ClusterKey[]>([]);
  const signature = keys.map(keyOf).join(',');

  useEffect(() => {
    if (keys.length === 0) return;
    let live = true;
    const take = async () => {
      try {
        const answer = await lockClusters(keys);
        if (!live) return;
        held.current = answer.filter((a) => a.acquired).map((a) => ({ clusterId: a.clusterId, monthId: a.monthId }));
        setLocks(Object.fromEntries(answer.map((a) => [keyOf(a), { acquired: a.acquired, userLock: a.userLock }])));
      } catch {
        if (live) setLocks((prev) => prev ?? {});
      }
    };
    void take();
    const timer = setInterval(take, RENEW_MS);
    const onExit = () => unlockClustersOnExit(held.current);
    window.addEventListener('pagehide', onExit);
    return () => {
      live = false;
      clearInterval(timer);
      window.removeEventListener('pagehide', onExit);
      if (held.current.length) void unlockClusters(held.current);
      held.current = [];
    };
    // The keys are compared by value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);

  return locks;
}
