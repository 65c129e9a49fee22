/**
 * The cluster page's controller: loads and locks the clusters the URL names, keeps the working copy
 * (composition-reducer), says what the caller may do with each cluster (logic/cluster-access) and
 * turns drops and buttons into composition changes. Save, publish and copy are use-cluster-actions.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import type { ClusterDto, ClusterKey } from '@bo/shared/clusters';
import type { Grant } from '@bo/shared/grants';
import { canEdit } from '@bo/shared/permissions';
import { useLeaveGuard } from '@/components/editor/use-leave-guard';
import { useLockKeeper } from '@/components/editor/use-lock-keeper';
import { useUndoShortcuts } from '@/components/editor/use-undo-shortcuts';
import type { ConfirmOptions } from '@/components/ui/confirm-dialog';
import { showMessagePopup } from '@/components/ui/message-popup';
import { paths } from '@/config/paths';
import { getModuleDetails } from '@/lib/module-calls';
import { useSession } from '@/lib/session';
import { useClassificationOptions } from '../api/get-classification-options';
import { getClusterDetails, useClusterDetails } from '../api/get-cluster-details';
import { useClusterPercentage } from '../api/get-cluster-percentage';
import { useDiscontinuedModules } from '../api/get-discontinued-modules';
import { useRangeFacing } from '../api/get-range-facing';
import { lockClusters } from '../api/lock-clusters';
import { clusterAccess, clusterScope, type ClusterAccess, type LockState } from '../logic/cluster-access';
import { keyOf, parseKey, type EditorModule } from '../logic/composition';
import { useClusterLive } from './use-cluster-live';
import { dropIntent, type DragData, type DropData } from '../logic/drop-rules';
import { editorModuleOf, restoredModules } from '../logic/restore-version';
import { clusterChanges, compositionOutcome, compositionReducer, initialCompositionState, type CompositionAction } from './composition-reducer';
import { undoRedo } from '@/components/editor/history';

/**
 * Unsaved changes (part 2 §4 "Leaving and switching"): leaving the screen asks 'You are leaving the page
 * without saving…'; opening other clusters in the editor asks 'Do you want to change the cluster?'.
 */
const leaveQuestion = (next: { pathname: string }): ConfirmOptions =>
  next.pathname === paths.cluster.path
    ? { title: CLUSTER_EDITOR_TEXTS.switchTitle, message: CLUSTER_EDITOR_TEXTS.switchBody, confirmLabel: 'Yes', cancelLabel: 'No' }
    : { title: 'Attention!', message: CLUSTER_EDITOR_TEXTS.leaving, confirmLabel: 'Yes', cancelLabel: 'No' };

/**
 * The open clusters' locks (part 2 §4 "Locking"): taken on opening, taken again (those not acquired
 * too) at each renewal; renewal and release on leaving or closing the tab are the shared lock keeper's.
 * Null until the first answer.
 */
function useClusterLocks(keys: readonly ClusterKey[]) {
  const [locks, setLocks] = useState<Record<string, LockState> | null>(null);
  const take = useRef<() => unknown>(() => undefined);
  const keeper = useLockKeeper<ClusterKey>({ unlockPath: '/cluster/unlock', id: keyOf, renew: () => take.current() });
  const signature = keys.map(keyOf).join(',');

  useEffect(() => {
    if (keys.length === 0) return;
    let live = true;
    take.current = async () => {
      try {
        const answer = await lockClusters(keys);
        if (!live) return;
        keeper.forget(keeper.held());
        keeper.hold(answer.filter((a) => a.acquired).map((a) => ({ clusterId: a.clusterId, monthId: a.monthId })));
        setLocks(Object.fromEntries(answer.map((a) => [keyOf(a), { acquired: a.acquired, userLock: a.userLock }])));
      } catch {
        if (live) setLocks((prev) => prev ?? {});
      }
    };
    void take.current();
    return () => {
      live = false;
      take.current = () => undefined;
      keeper.releaseAll();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the keys are compared by value (signature), not by identity
  }, [signature, keeper]);

  /** Takes the locks again now (after a forced unlock of another user's lock). */
  const retake = useCallback(async () => {
    await take.current();
  }, []);
  /**
   * The page's lock on a cluster was taken away (forced by `by`, or lapsed: null): forgotten without a call, the
   * cluster turns read-only with its unsaved edits on screen (the block's notice says so). The next renewal takes
   * a lapsed lock back if it is still free, as it takes every lock of the page not acquired.
   */
  const lost = useCallback(
    (key: string, by: string | null) => {
      keeper.forget([parseKey(key)]);
      setLocks((prev) => ({ ...(prev ?? {}), [key]: { acquired: false, userLock: by } }));
    },
    [keeper],
  );
  return { locks, retake, lost };
}

const NO_GRANTS: Grant[] = [];

export function useClusterEditor(keys: ClusterKey[]) {
  const signature = keys.map(keyOf).join(',');
  const grants = useSession((s) => s.grants) ?? NO_GRANTS;
  const username = useSession((s) => s.user?.username) ?? '';

  // ───────── loading and locks ─────────
  const details = useClusterDetails(keys, signature);
  const [state, dispatch] = useReducer(compositionReducer, initialCompositionState);
  const load = useCallback((clusters: ClusterDto[]) => dispatch({ type: 'load', clusters }), []);
  useEffect(() => {
    if (details.data) load(details.data);
  }, [details.data, load]);
  const { locks, retake: retakeLocks, lost } = useClusterLocks(keys);

  const changes = useMemo(() => clusterChanges(state), [state]);
  const dirty = Object.values(changes).some((c) => c.any);

  /** Reads the clusters again; with unsaved edits only their server state (status, lock) is taken. */
  const reload = async () => {
    const fresh = await getClusterDetails(keys);
    if (dirty) dispatch({ type: 'refresh', clusters: fresh });
    else load(fresh);
    return fresh;
  };

  /** Puts fresh server answers in place of the saved clusters (the others keep their state). */
  const applyServer = (fresh: ClusterDto[]) => {
    const byKey = new Map(fresh.map((c) => [keyOf(c), c]));
    load(state.order.map((k) => byKey.get(k) ?? state.base[k]!));
  };

  // ───────── access ─────────
  const clusters = useMemo(() => state.order.map((k) => state.base[k]!).filter(Boolean), [state.order, state.base]);
  const access = useMemo(() => {
    const out: Record<string, ClusterAccess> = {};
    for (const c of clusters) out[keyOf(c)] = clusterAccess(grants, username, c, locks, keyOf(c));
    return out;
  }, [clusters, locks, grants, username]);
  const editableKeys = state.order.filter((k) => access[k] && !access[k].readOnly);
  const canEditAny = clusters.some((c) => canEdit(grants, clusterScope(c)));

  // ───────── figures shown beside the composition ─────────
  const compositions = state.present.compositions;
  const classificationOptions = useClassificationOptions();
  const rangeFacing = useRangeFacing(keys);
  const percentageRequest = useMemo(
    () =>
      state.order.map((k) => {
        const c = state.base[k]!;
        return { clusterId: c.clusterId, monthId: c.monthId, modules: (compositions[k] ?? []).map((m) => ({ moduleName: m.moduleName, clusterCompositionStatus: m.clusterCompositionStatus })) };
      }),
    [state.order, state.base, compositions],
  );
  const percentage = useClusterPercentage(percentageRequest);
  const [discoVersion, setDiscoVersion] = useState(0);
  const discontinued = useDiscontinuedModules(keys, discoVersion);
  const refreshDiscontinued = useCallback(() => setDiscoVersion((v) => v + 1), []);

  // ───────── edits ─────────
  /** Applies a composition change, or shows why it cannot be made. */
  const change = (action: CompositionAction) => {
    const outcome = compositionOutcome(state, action);
    if (outcome?.kind === 'error') return showMessagePopup('Error!', outcome.message);
    dispatch(action);
  };
  const addTo = (key: string, module: EditorModule) => {
    if (!access[key]?.readOnly && access[key]) change({ type: 'add', key, module });
  };
  const removeFrom = (key: string, moduleName: string) => {
    if (!access[key]?.readOnly && access[key]) change({ type: 'remove', key, moduleName });
  };
  const addToAll = (module: EditorModule) => change({ type: 'addToAll', targets: editableKeys.filter((k) => state.base[k]!.brandCode === module.brand), module });
  const removeFromAll = (module: EditorModule) => change({ type: 'removeFromAll', targets: editableKeys, module });

  /** A module dropped on an area (pointer or keyboard drag). */
  const drop = (from: DragData, to: DropData) => {
    const intent = dropIntent(from, to);
    if (intent?.kind === 'add') addTo(intent.key, from.module);
    else if (intent?.kind === 'remove') removeFrom(intent.key, from.module.moduleName);
    else if (intent?.kind === 'addToAll') addToAll(from.module);
    else if (intent?.kind === 'removeFromAll') removeFromAll(from.module);
  };

  /**
   * A version from the History panel loaded into a cluster as unsaved changes (one undo step); modules the cluster no
   * longer lists are read first. Answers the modules that could not be restored.
   */
  const restoreVersion = async (key: string, v: { modules: string[]; lias: string[]; description: string; classifications: number[]; revertOf: number }) => {
    if (!access[key] || access[key].readOnly) return [];
    const current = compositions[key] ?? [];
    const unknown = v.modules.filter((name) => !current.some((m) => m.moduleName === name));
    const monthId = state.base[key]!.monthId;
    const fetched = unknown.length ? (await getModuleDetails(unknown.map((moduleName) => ({ moduleName, monthId }))).catch(() => [])).map(editorModuleOf) : [];
    const { modules, skipped } = restoredModules(current, v.modules, fetched);
    // Only LIAs the cluster still offers can be checked (the save sends the cluster's own list).
    const lias = v.lias.filter((code) => state.base[key]!.lias.some((l) => l.liaCode === code));
    dispatch({ type: 'restore', key, modules, lias, description: v.description, classifications: v.classifications, revertOf: v.revertOf });
    return skipped;
  };

  const reloadOne = useCallback((fresh: ClusterDto[]) => {
    for (const cluster of fresh) dispatch({ type: 'reloaded', cluster });
  }, []);
  const live = useClusterLive({ clusters, locks, access, changes, grants, username, retakeLocks, lost, reloadOne });

  const undo = useCallback(() => dispatch({ type: 'undo' }), []);
  const redo = useCallback(() => dispatch({ type: 'redo' }), []);
  useUndoShortcuts(undo, redo);
  useLeaveGuard(dirty, { question: leaveQuestion, guardSearch: true });

  return {
    keys,
    details,
    state,
    clusters,
    compositions,
    changes,
    dirty,
    access,
    editableKeys,
    canEditAny,
    grants,
    load,
    reload,
    applyServer,
    retakeLocks,
    /** Live notices per cluster (lock released, newer version saved, lock lost) and their actions. */
    live,
    figures: { classificationOptions, rangeFacing, percentage, discontinued },
    refreshDiscontinued,
    addTo,
    removeFrom,
    addToAll,
    removeFromAll,
    drop,
    restoreVersion,
    undo,
    redo,
    ...undoRedo(state),
    setDescription: useCallback((key: string, value: string) => dispatch({ type: 'description', key, value }), []),
    setLias: useCallback((key: string, codes: string[]) => dispatch({ type: 'lias', key, codes }), []),
    setClassifications: useCallback((key: string, ids: number[]) => dispatch({ type: 'classifications', key, ids }), []),
  };
}

export type ClusterEditor = ReturnType<typeof useClusterEditor>;
