/**
 * The module page's controller: loads and locks the modules the URL names, keeps the working copy
 * (editor-reducer), and turns drops, menu choices and keys into composition changes.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { ModuleKey, ProductDto } from '@bo/shared/modules';
import { WORKING_AREA_TEXTS, type WorkingModule } from '@bo/shared/working-area';
import { useLeaveGuard } from '@/components/editor/use-leave-guard';
import { useModuleLive } from './use-module-live';
import { useUndoShortcuts } from '@/components/editor/use-undo-shortcuts';
import { showMessagePopup } from '@/components/ui/message-popup';
import { flash } from '@/components/ui/flash';
import { NO_GRANTS, useSession } from '@/lib/session';
import { getWorkingModules } from '../api/get-working-modules';
import { importModules, type ImportItem } from '../api/import-modules';
import type { DragData, DropData } from '../logic/dnd-ids';
import { addFromElsewhere, dropFeedback, moveWithin, sameFamilyOfModules, toggleClass, type Area, type DropOutcome } from '../logic/drop-rules';
import { moduleAccess, type ModuleAccess } from '../logic/module-access';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';
import type { PageRequest } from '../logic/page-params';
import { editorReducer, hasChanges, initialEditorState, type EditorModule } from './editor-reducer';
import { useModuleLocks } from './use-module-locks';
import { undoRedo } from '@/components/editor/history';

/** Leaving with unsaved changes (docs/working-area.md "Locks"). */
const leaveQuestion = () => ({ title: 'Unsaved changes', message: WORKING_AREA_TEXTS.leave, confirmLabel: 'Leave', cancelLabel: 'Stay', confirmColor: 'red' as const });

/** 'locking': the modules are in and the lock answer is not yet; the page draws the cards hidden meanwhile. */
type LoadStatus = 'loading' | 'locking' | 'ready' | 'notFound' | 'error';

export function useModuleEditor(request: PageRequest) {
  const [state, dispatch] = useReducer(editorReducer, initialEditorState);
  const [status, setStatus] = useState<LoadStatus>('loading');
  const [busy, setBusy] = useState<Record<ModuleKeyString, boolean>>({});
  const grants = useSession((s) => s.grants) ?? NO_GRANTS;
  const username = useSession((s) => s.user?.username) ?? '';
  const { locks, lock, lockFamily, lost } = useModuleLocks();
  const stateRef = useRef(state);
  stateRef.current = state;

  // ───────── loading ─────────
  const requestKey = JSON.stringify(request);
  useEffect(() => {
    let cancelled = false;
    const load = async () => {
      setStatus('loading');
      try {
        if (request.kind === 'modules') {
          // Lock and load at the same time: who holds each module comes from the lock answer
          // (moduleAccess reads it before the module's own userLock), so the order does not matter.
          // The modules answer often comes first (on the server the lock waits behind it): the page
          // draws the cards hidden and inert ('locking') while the lock answer is on its way, and
          // shows them with it, so that their render overlaps the wait instead of following it.
          let locked = false;
          const locking = lock(request.keys).finally(() => (locked = true));
          const dtos = await getWorkingModules(request.keys);
          if (cancelled) return;
          dispatch({ type: 'loaded', dtos, replace: true });
          if (!locked && dtos.length) setStatus('locking');
          await locking;
          if (cancelled) return;
          setStatus(dtos.length ? 'ready' : 'notFound');
        } else if (request.kind === 'family') {
          const { kind: _kind, ...item } = request;
          const { moduleDtoList } = await importModules([item]);
          await Promise.all([lock(moduleDtoList.map(({ moduleName, monthId }) => ({ moduleName, monthId }))), lockFamily([{ macroFamily: request.macroFamily, monthId: request.monthId }])]);
          if (cancelled) return;
          dispatch({ type: 'loaded', dtos: moduleDtoList, replace: true });
          setStatus('ready');
        }
      } catch {
        if (!cancelled) setStatus('error');
      }
    };
    void load();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- requestKey stands for request (compared by value)
  }, [requestKey, lock, lockFamily]);

  /** Adds modules to the page (Import Module, Create Module), locking them. */
  const addModules = useCallback(
    async (items: ImportItem[]) => {
      const { moduleDtoList, notFound } = await importModules(items);
      await lock(moduleDtoList.map(({ moduleName, monthId }) => ({ moduleName, monthId })));
      dispatch({ type: 'loaded', dtos: moduleDtoList });
      if (moduleDtoList.length) setStatus('ready');
      return { added: moduleDtoList.length, notFound };
    },
    [lock],
  );

  /** Reads modules again from the server (after a save, a publish, a job). */
  const reload = useCallback(async (keys: ModuleKey[]) => {
    if (keys.length === 0) return [] as WorkingModule[];
    const dtos = await getWorkingModules(keys);
    for (const dto of dtos) dispatch({ type: 'refreshed', dto });
    return dtos;
  }, []);

  // ───────── access ─────────
  // Each module keeps its access object while nothing in it changes, so that an edit of one module
  // does not re-render the cards of the others (ModuleCard is memoised on its props).
  const previousAccess = useRef<Record<ModuleKeyString, ModuleAccess>>({});
  const access = useMemo(() => {
    const out: Record<ModuleKeyString, ModuleAccess> = {};
    for (const key of state.order) {
      const m = state.modules[key];
      if (!m) continue;
      const next = moduleAccess(grants, username, m.dto, locks[key], !!busy[key]);
      const before = previousAccess.current[key];
      out[key] = before && sameAccess(before, next) ? before : next;
    }
    previousAccess.current = out;
    return out;
  }, [state.order, state.modules, grants, username, locks, busy]);
  const accessRef = useRef(access);
  accessRef.current = access;

  const setModuleBusy = useCallback((key: ModuleKeyString, value: boolean) => setBusy((b) => ({ ...b, [key]: value })), []);

  // ───────── edits ─────────
  const apply = useCallback((key: ModuleKeyString, outcome: DropOutcome) => {
    const feedback = dropFeedback(outcome);
    if (feedback.popup) showMessagePopup(feedback.popup.title, feedback.popup.lines);
    if (feedback.products) dispatch({ type: 'products', key, products: feedback.products });
    if (feedback.flash) flash(feedback.flash.message, feedback.flash.kind, feedback.flash.title ? { title: feedback.flash.title } : {});
  }, []);

  const editable = (key: ModuleKeyString) => !!stateRef.current.modules[key] && !accessRef.current[key]?.readOnly;

  /** A drop of a tile on an area (pointer or keyboard drag). */
  const drop = useCallback(
    (drag: DragData, target: DropData) => {
      if (!editable(target.moduleKey)) return;
      const to = stateRef.current.modules[target.moduleKey]!;
      if (drag.moduleKey === target.moduleKey) return apply(target.moduleKey, moveWithin(to.products, drag.product.upc, target.area));
      const from = drag.moduleKey ? stateRef.current.modules[drag.moduleKey]?.dto : null;
      const identity = from ?? { monthId: to.dto.monthId, brand: drag.product.brand ?? '', collection: drag.product.collection ?? '' };
      apply(target.moduleKey, addFromElsewhere(to.products, drag.product, target.area, sameFamilyOfModules(identity, to.dto)));
    },
    [apply],
  );

  const move = useCallback(
    (key: ModuleKeyString, upc: string, to: Area) => {
      if (!editable(key)) return;
      apply(key, moveWithin(stateRef.current.modules[key]!.products, upc, to));
    },
    [apply],
  );

  const toggle = useCallback(
    (key: ModuleKeyString, upc: string) => {
      if (!editable(key)) return;
      apply(key, toggleClass(stateRef.current.modules[key]!.products, upc));
    },
    [apply],
  );

  const keyAction = useCallback(
    (key: ModuleKeyString, upc: string, pressed: string) => {
      if (pressed === 'Delete') move(key, upc, 'BIN');
      else toggle(key, upc);
    },
    [move, toggle],
  );

  const addTo = useCallback(
    (fromKey: ModuleKeyString | null, product: DragData['product'], toKey: ModuleKeyString, area: 'MH' | 'EL') =>
      drop({ moduleKey: fromKey, product, area: 'EL' }, { moduleKey: toKey, area }),
    [drop],
  );

  const setMinValue = useCallback((key: ModuleKeyString, upc: string, value: number) => {
    if (editable(key)) dispatch({ type: 'minValue', key, upc, value });
  }, []);
  const setDescription = useCallback((key: ModuleKeyString, value: string) => {
    if (editable(key)) dispatch({ type: 'description', key, value: value.slice(0, 100) });
  }, []);
  const setNewModule = useCallback((key: ModuleKeyString, value: boolean) => {
    if (editable(key)) dispatch({ type: 'newModule', key, value });
  }, []);
  const undo = useCallback(() => dispatch({ type: 'undo' }), []);
  const redo = useCallback(() => dispatch({ type: 'redo' }), []);
  useUndoShortcuts(undo, redo);

  const dirty = useMemo(() => Object.values(state.modules).some(hasChanges), [state.modules]);
  useLeaveGuard(dirty, { question: leaveQuestion });

  const modules = useMemo(() => state.order.map((k) => state.modules[k]).filter((m): m is EditorModule => !!m), [state.order, state.modules]);
  const live = useModuleLive({ modules, locks, access, grants, username, lock, reload, lost });

  return {
    state,
    modules,
    status,
    access,
    dirty,
    ...undoRedo(state),
    stateRef,
    dispatch,
    drop,
    move,
    toggle,
    keyAction,
    addTo,
    setMinValue,
    setDescription,
    setNewModule,
    undo,
    redo,
    addModules,
    /** Takes (or renews) the page's lock on modules (after a forced unlock of another user's lock). */
    lock,
    reload,
    setModuleBusy,
    productsOf: (key: ModuleKeyString): ProductDto[] => stateRef.current.modules[key]?.products ?? [],
    keyOf: moduleKey,
    /** Live notices per module (lock released, newer version saved, lock lost) and their actions. */
    live,
  };
}

export type ModuleEditor = ReturnType<typeof useModuleEditor>;

const sameAccess = (a: ModuleAccess, b: ModuleAccess) =>
  a.readOnly === b.readOnly && a.reason === b.reason && a.lockedBy === b.lockedBy && a.canSave === b.canSave && a.canPublish === b.canPublish && a.canCopy === b.canCopy;
