import { useCallback, useMemo, useReducer } from 'react';
import type { ClusterDto } from '@bo/shared/clusters';
import { checkedLias, keyOf, sameComposition, sameSet, toEditorModules, type Compositions, type EditorModule } from '../logic/composition';

/**
 * The editor's state: the clusters as the server answered them, and the screen's edits. Composition
 * changes (modules in and out, the 'all clusters' bin) are kept in an undo/redo history until saved;
 * description, LIA and classification edits are plain fields.
 */
interface Snapshot {
  compositions: Compositions;
  allBin: EditorModule[];
}

export interface EditorState {
  order: string[];
  base: Record<string, ClusterDto>;
  present: Snapshot;
  past: Snapshot[];
  future: Snapshot[];
  descriptions: Record<string, string>;
  lias: Record<string, string[]>;
  classifications: Record<string, number[]>;
}

type Action =
  | { type: 'load'; clusters: ClusterDto[] }
  | { type: 'refresh'; clusters: ClusterDto[] }
  | { type: 'compose'; compositions: Compositions; allBin?: EditorModule[] }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'description'; key: string; value: string }
  | { type: 'lias'; key: string; codes: string[] }
  | { type: 'classifications'; key: string; ids: number[] };

const HISTORY_LIMIT = 100;

function fromServer(clusters: ClusterDto[]): EditorState {
  const base = Object.fromEntries(clusters.map((c) => [keyOf(c), c]));
  return {
    order: clusters.map(keyOf),
    base,
    present: { compositions: Object.fromEntries(clusters.map((c) => [keyOf(c), toEditorModules(c)])), allBin: [] },
    past: [],
    future: [],
    descriptions: Object.fromEntries(clusters.map((c) => [keyOf(c), c.clusterDescription])),
    lias: Object.fromEntries(clusters.map((c) => [keyOf(c), checkedLias(c)])),
    classifications: Object.fromEntries(clusters.map((c) => [keyOf(c), c.classifications.map((x) => x.classificationId)])),
  };
}

function reducer(state: EditorState, action: Action): EditorState {
  switch (action.type) {
    case 'load':
      return fromServer(action.clusters);
    case 'refresh': {
      // New server state (status, lock, months) for clusters the screen has not changed.
      const base = { ...state.base };
      for (const c of action.clusters) base[keyOf(c)] = c;
      return { ...state, base };
    }
    case 'compose':
      return {
        ...state,
        past: [...state.past, state.present].slice(-HISTORY_LIMIT),
        future: [],
        present: { compositions: action.compositions, allBin: action.allBin ?? state.present.allBin },
      };
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return { ...state, past: state.past.slice(0, -1), future: [state.present, ...state.future], present: previous };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return { ...state, past: [...state.past, state.present], future: rest, present: next };
    }
    case 'description':
      return { ...state, descriptions: { ...state.descriptions, [action.key]: action.value } };
    case 'lias':
      return { ...state, lias: { ...state.lias, [action.key]: action.codes } };
    case 'classifications':
      return { ...state, classifications: { ...state.classifications, [action.key]: action.ids } };
  }
}

const empty: EditorState = fromServer([]);

export interface ClusterChanges {
  composition: boolean;
  description: boolean;
  lias: boolean;
  classifications: boolean;
  any: boolean;
}

export function useComposition() {
  const [state, dispatch] = useReducer(reducer, empty);

  const changes = useMemo(() => {
    const out: Record<string, ClusterChanges> = {};
    for (const key of state.order) {
      const dto = state.base[key]!;
      const composition = !sameComposition(toEditorModules(dto), state.present.compositions[key] ?? []);
      const description = (state.descriptions[key] ?? '') !== dto.clusterDescription;
      const lias = !sameSet(state.lias[key] ?? [], checkedLias(dto));
      const classifications = !sameSet(state.classifications[key] ?? [], dto.classifications.map((c) => c.classificationId));
      out[key] = { composition, description, lias, classifications, any: composition || description || lias || classifications };
    }
    return out;
  }, [state]);

  const dirty = Object.values(changes).some((c) => c.any);

  return {
    state,
    changes,
    dirty,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
    load: useCallback((clusters: ClusterDto[]) => dispatch({ type: 'load', clusters }), []),
    refresh: useCallback((clusters: ClusterDto[]) => dispatch({ type: 'refresh', clusters }), []),
    compose: useCallback((compositions: Compositions, allBin?: EditorModule[]) => dispatch({ type: 'compose', compositions, allBin }), []),
    undo: useCallback(() => dispatch({ type: 'undo' }), []),
    redo: useCallback(() => dispatch({ type: 'redo' }), []),
    setDescription: useCallback((key: string, value: string) => dispatch({ type: 'description', key, value }), []),
    setLias: useCallback((key: string, codes: string[]) => dispatch({ type: 'lias', key, codes }), []),
    setClassifications: useCallback((key: string, ids: number[]) => dispatch({ type: 'classifications', key, ids }), []),
  };
}
