import { useCallback, useMemo, useRef } from 'react';
import type { ClusterDto } from '@bo/shared/clusters';
import type { Grant } from '@bo/shared/grants';
import type { TrackedItem } from '@/components/editor/live-item-notices';
import { useLiveItemNotices } from '@/components/editor/use-live-item-notices';
import { useReportOpenItems } from '@/components/live/use-live';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { LIVE_TEXTS } from '@/lib/live/presence-texts';
import { getClusterDetails } from '../api/get-cluster-details';
import { clusterAccess, type ClusterAccess, type LockState } from '../logic/cluster-access';
import { keyOf, parseKey } from '../logic/composition';

/**
 * The cluster page's live side (issue 36), as the module page's (module-editor/hooks/use-module-live.ts): what
 * the page has open (editing what it holds, viewing the rest) and the blocks' notices: a lock lost (the block
 * turns read-only, its edits stay), the other user's release ('Edit it now'), a newer saved version (Reload,
 * which asks first when the block has unsaved edits).
 */
export function useClusterLive({
  clusters,
  locks,
  access,
  changes,
  grants,
  username,
  retakeLocks,
  lost,
  reloadOne,
}: {
  clusters: readonly ClusterDto[];
  locks: Readonly<Record<string, LockState>> | null;
  access: Readonly<Record<string, ClusterAccess>>;
  changes: Readonly<Record<string, { any: boolean }>>;
  grants: readonly Grant[];
  username: string;
  retakeLocks: () => Promise<void>;
  lost: (key: string, by: string | null) => void;
  /** Puts the clusters read again in place of theirs (the other clusters keep their edits). */
  reloadOne: (fresh: ClusterDto[]) => void;
}) {
  const rows = clusters.map((c) => {
    const key = keyOf(c);
    return { key, holds: !!locks?.[key]?.acquired, lockedBy: access[key]?.lockedBy ?? null, version: c.version };
  });
  const signature = JSON.stringify(rows);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `signature` stands for the rows
  const tracked: TrackedItem[] = useMemo(() => rows, [signature]);
  const open = useMemo(
    () => tracked.map((t) => ({ kind: 'cluster' as const, name: parseKey(t.key).clusterId, monthId: parseKey(t.key).monthId, mode: t.holds ? ('editing' as const) : ('viewing' as const) })),
    [tracked],
  );
  useReportOpenItems(open);

  const now = useRef({ clusters, changes, reloadOne });
  now.current = { clusters, changes, reloadOne };
  const describe = useCallback((key: string) => {
    const c = now.current.clusters.find((x) => keyOf(x) === key);
    return c ? `${c.clusterLabel} (${c.clusterId})` : key;
  }, []);

  const { notices, dismiss } = useLiveItemNotices({ kind: 'cluster', items: tracked, keyOf: (name, monthId) => keyOf({ clusterId: name, monthId }), onLockLost: lost, describe });

  const mayEdit = useCallback(
    (key: string) => {
      const c = now.current.clusters.find((x) => keyOf(x) === key);
      return !!c && !clusterAccess(grants, username, { ...c, userLock: null }, { [key]: { acquired: true, userLock: null } }, key).readOnly;
    },
    [grants, username],
  );

  const readOne = useCallback(async (key: string) => {
    const fresh = await getClusterDetails([parseKey(key)]);
    now.current.reloadOne(fresh);
  }, []);

  /** 'Edit it now': the page takes its locks again; a block without unsaved edits is read again, one with edits keeps them. */
  const editNow = useCallback(
    async (key: string) => {
      await retakeLocks();
      dismiss(key, 'released');
      if (!now.current.changes[key]?.any) await readOne(key);
    },
    [retakeLocks, dismiss, readOne],
  );

  const reload = useCallback(
    async (key: string) => {
      if (now.current.changes[key]?.any) {
        const yes = await confirmDialog({ title: 'Reload the cluster', message: LIVE_TEXTS.reloadQuestion('cluster'), confirmLabel: 'Reload', cancelLabel: 'Keep my changes', confirmColor: 'red' });
        if (!yes) return;
      }
      try {
        await readOne(key);
      } catch {
        flash('The cluster could not be read again. Try again.', 'error');
      }
    },
    [readOne],
  );

  return { notices, mayEdit, editNow, reload };
}
