/**
 * The cluster page's working copy: the clusters as the server answered them, and the screen's edits.
 * Composition changes (modules in and out, the 'all clusters' bin) and LIA changes are undoable steps
 * until saved; description and classification edits are plain fields (their inputs keep their own undo).
 * Pure: the changes themselves are the rules of logic/composition.ts, so it is unit-tested on its own.
 */
import type { ClusterDto } from '@bo/shared/clusters';
// Relative, not '@/…': the unit tests run under the root vitest config, which has no '@' alias.
import { commit, redo, rewrite, undo, type Timeline } from '../../../components/editor/history';
import {
  addToAllClusters,
  addToCluster,
  checkedLias,
  keyOf,
  removeFromAllClusters,
  removeFromCluster,
  sameComposition,
  setClusterLias,
  sameSet,
  toEditorModules,
  type CompositionOutcome,
  type CompositionSnapshot,
  type EditorModule,
} from '../logic/composition';

export interface CompositionState extends Timeline<CompositionSnapshot> {
  order: string[];
  base: Record<string, ClusterDto>;
  descriptions: Record<string, string>;
  classifications: Record<string, number[]>;
}

export type CompositionAction =
  /** Server state replacing everything (open, save, publish): the history starts again. */
  | { type: 'load'; clusters: ClusterDto[] }
  /** New server state (status, lock, months) for the clusters, keeping the screen's edits. */
  | { type: 'refresh'; clusters: ClusterDto[] }
  /**
   * One cluster read again as the server has it (the live Reload of an outdated cluster): its saved state replaces
   * its edits in every step of the history, the other clusters keep theirs.
   */
  | { type: 'reloaded'; cluster: ClusterDto }
  | { type: 'add'; key: string; module: EditorModule }
  | { type: 'remove'; key: string; moduleName: string }
  | { type: 'addToAll'; targets: string[]; module: EditorModule }
  | { type: 'removeFromAll'; targets: string[]; module: EditorModule }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'description'; key: string; value: string }
  | { type: 'lias'; key: string; codes: string[] }
  | { type: 'classifications'; key: string; ids: number[] }
  /**
   * A version from the History panel loaded as unsaved changes: its modules and LIAs are one undo step (which also
   * takes back the revert mark); its description and classifications are set like the plain fields they are.
   */
  | { type: 'restore'; key: string; modules: EditorModule[]; lias: string[]; description: string; classifications: number[]; revertOf: number };

export const HISTORY_LIMIT = 100;

export function fromServer(clusters: ClusterDto[]): CompositionState {
  return {
    order: clusters.map(keyOf),
    base: Object.fromEntries(clusters.map((c) => [keyOf(c), c])),
    present: {
      compositions: Object.fromEntries(clusters.map((c) => [keyOf(c), toEditorModules(c)])),
      allBin: [],
      lias: Object.fromEntries(clusters.map((c) => [keyOf(c), checkedLias(c)])),
    },
    past: [],
    future: [],
    descriptions: Object.fromEntries(clusters.map((c) => [keyOf(c), c.clusterDescription])),
    classifications: Object.fromEntries(clusters.map((c) => [keyOf(c), c.classifications.map((x) => x.classificationId)])),
  };
}

export const initialCompositionState: CompositionState = fromServer([]);

/** The outcome of a composition action on `state` (the hook reads it first to show the error). */
export function compositionOutcome(state: CompositionState, action: CompositionAction): CompositionOutcome | null {
  switch (action.type) {
    case 'add':
      return addToCluster(state.present, action.key, action.module);
    case 'remove':
      return removeFromCluster(state.present, action.key, action.moduleName);
    case 'addToAll':
      return addToAllClusters(state.present, action.targets, action.module);
    case 'removeFromAll':
      return removeFromAllClusters(state.present, action.targets, action.module);
    case 'lias':
      return setClusterLias(state.present, action.key, action.codes);
    default:
      return null;
  }
}

export function compositionReducer(state: CompositionState, action: CompositionAction): CompositionState {
  switch (action.type) {
    case 'load':
      return fromServer(action.clusters);
    case 'refresh': {
      const base = { ...state.base };
      for (const c of action.clusters) base[keyOf(c)] = c;
      return { ...state, base };
    }
    case 'reloaded': {
      const c = action.cluster;
      const key = keyOf(c);
      if (!state.base[key]) return state;
      const replace = (snapshot: CompositionSnapshot): CompositionSnapshot => ({
        ...snapshot,
        compositions: { ...snapshot.compositions, [key]: toEditorModules(c) },
        lias: { ...snapshot.lias, [key]: checkedLias(c) },
        ...(snapshot.revertOf ? { revertOf: Object.fromEntries(Object.entries(snapshot.revertOf).filter(([k]) => k !== key)) } : {}),
      });
      return {
        ...state,
        ...rewrite(state, replace),
        base: { ...state.base, [key]: c },
        descriptions: { ...state.descriptions, [key]: c.clusterDescription },
        classifications: { ...state.classifications, [key]: c.classifications.map((x) => x.classificationId) },
      };
    }
    case 'add':
    case 'remove':
    case 'addToAll':
    case 'removeFromAll':
    case 'lias': {
      const outcome = compositionOutcome(state, action);
      if (outcome?.kind !== 'apply') return state;
      return { ...state, ...commit(state, outcome.next, HISTORY_LIMIT) };
    }
    case 'undo':
    case 'redo': {
      const moved = action.type === 'undo' ? undo(state) : redo(state);
      return moved === state ? state : { ...state, ...moved };
    }
    case 'restore': {
      if (!state.base[action.key]) return state;
      const s = state.present;
      const next = {
        ...s,
        compositions: { ...s.compositions, [action.key]: action.modules },
        lias: { ...s.lias, [action.key]: [...action.lias].sort() },
        revertOf: { ...s.revertOf, [action.key]: action.revertOf },
      };
      return {
        ...state,
        ...commit(state, next, HISTORY_LIMIT),
        descriptions: { ...state.descriptions, [action.key]: action.description },
        classifications: { ...state.classifications, [action.key]: [...action.classifications] },
      };
    }
    case 'description':
      return { ...state, descriptions: { ...state.descriptions, [action.key]: action.value } };
    case 'classifications':
      return { ...state, classifications: { ...state.classifications, [action.key]: action.ids } };
  }
}

// ───────────── derived ─────────────

interface ClusterChanges {
  composition: boolean;
  description: boolean;
  lias: boolean;
  classifications: boolean;
  any: boolean;
}

/** What the screen changed in each cluster, against the server's version. */
export function clusterChanges(state: CompositionState): Record<string, ClusterChanges> {
  const out: Record<string, ClusterChanges> = {};
  for (const key of state.order) {
    const dto = state.base[key]!;
    const composition = !sameComposition(toEditorModules(dto), state.present.compositions[key] ?? []);
    const description = (state.descriptions[key] ?? '') !== dto.clusterDescription;
    const lias = !sameSet(state.present.lias[key] ?? [], checkedLias(dto));
    const classifications = !sameSet(state.classifications[key] ?? [], dto.classifications.map((c) => c.classificationId));
    out[key] = { composition, description, lias, classifications, any: composition || description || lias || classifications };
  }
  return out;
}
