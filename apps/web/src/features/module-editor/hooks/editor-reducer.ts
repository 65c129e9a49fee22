/**
 * The page's working copy of its modules, with undo and redo (Ctrl+Z / Ctrl+Shift+Z) of every change
 * until the module is saved. Pure: no I/O, so it is unit-tested on its own.
 *
 * History holds snapshots of the `modules` record; unchanged modules are shared between snapshots,
 * so a step costs one object per changed module. A save (or a refresh from the server) rewrites the
 * module in every snapshot: undo never goes back past a save.
 */
import type { ProductDto } from '@bo/shared/modules';
import type { WorkingModule } from '@bo/shared/working-area';
// Relative, not '@/…': the unit tests run under the root vitest config, which has no '@' alias.
import { amend, commit, redo, rewrite, undo, type Timeline } from '../../../components/editor/history';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';

export interface EditorModule {
  /** The module as the server last answered it. */
  dto: WorkingModule;
  products: ProductDto[];
  description: string;
  newModule: boolean;
  /** The version a History restore loaded into the module: its next save is recorded as a revert of it (then cleared). */
  revertOf?: number;
}

type Modules = Readonly<Record<ModuleKeyString, EditorModule>>;

export interface EditorState {
  order: ModuleKeyString[];
  modules: Modules;
  past: Modules[];
  future: Modules[];
  /** Consecutive edits with the same tag (typing a description) make one undo step. */
  lastTag: string | null;
}

export const HISTORY_LIMIT = 200;

type EditorAction =
  | { type: 'loaded'; dtos: WorkingModule[]; replace?: boolean }
  | { type: 'refreshed'; dto: WorkingModule }
  | { type: 'closed'; key: ModuleKeyString }
  | { type: 'products'; key: ModuleKeyString; products: ProductDto[] }
  | { type: 'minValue'; key: ModuleKeyString; upc: string; value: number }
  | { type: 'description'; key: ModuleKeyString; value: string }
  | { type: 'newModule'; key: ModuleKeyString; value: boolean }
  /** A version from the History panel loaded as unsaved changes: one undo step. */
  | { type: 'restore'; key: ModuleKeyString; products: ProductDto[]; description: string; revertOf: number }
  | { type: 'undo' }
  | { type: 'redo' };

export const initialEditorState: EditorState = { order: [], modules: {}, past: [], future: [], lastTag: null };

const fresh = (dto: WorkingModule): EditorModule => ({
  dto,
  products: dto.productDtoList,
  description: dto.moduleDescription,
  newModule: dto.newModule,
});

const timeline = (state: EditorState): Timeline<Modules> => ({ past: state.past, present: state.modules, future: state.future });
const fromTimeline = (t: Timeline<Modules>): Pick<EditorState, 'modules' | 'past' | 'future'> => ({ modules: t.present, past: [...t.past], future: [...t.future] });

/** Applies `fn` to every snapshot, present and past (loads and saves are not undoable steps). */
function everywhere(state: EditorState, fn: (m: Modules) => Modules): Pick<EditorState, 'modules' | 'past' | 'future'> {
  return fromTimeline(rewrite(timeline(state), fn));
}

function edit(state: EditorState, key: ModuleKeyString, change: (m: EditorModule) => EditorModule, tag: string | null = null): EditorState {
  const current = state.modules[key];
  if (!current) return state;
  const next = change(current);
  if (next === current) return state;
  const modules = { ...state.modules, [key]: next };
  if (tag !== null && tag === state.lastTag) return { ...state, ...fromTimeline(amend(timeline(state), modules)) };
  return { ...state, ...fromTimeline(commit(timeline(state), modules, HISTORY_LIMIT)), lastTag: tag };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'loaded': {
      const added = Object.fromEntries(action.dtos.map((d) => [moduleKey(d), fresh(d)]));
      if (action.replace) return { ...initialEditorState, order: action.dtos.map(moduleKey), modules: added };
      const newKeys = action.dtos.map(moduleKey).filter((k) => !state.modules[k]);
      const onlyNew = Object.fromEntries(newKeys.map((k) => [k, added[k]!]));
      return { ...state, ...everywhere(state, (m) => ({ ...m, ...onlyNew })), order: [...state.order, ...newKeys] };
    }
    case 'refreshed': {
      const key = moduleKey(action.dto);
      if (!state.modules[key]) return state;
      const replaced = fresh(action.dto);
      return { ...state, ...everywhere(state, (m) => ({ ...m, [key]: replaced })), lastTag: null };
    }
    case 'closed': {
      const drop = (m: Modules) => {
        const { [action.key]: _gone, ...rest } = m;
        return rest;
      };
      return { ...state, ...everywhere(state, drop), order: state.order.filter((k) => k !== action.key) };
    }
    case 'products':
      return edit(state, action.key, (m) => ({ ...m, products: action.products }));
    case 'minValue':
      return edit(
        state,
        action.key,
        (m) => ({ ...m, products: m.products.map((p) => (p.upc === action.upc ? { ...p, minValue: action.value } : p)) }),
        `min|${action.key}|${action.upc}`,
      );
    case 'description':
      return edit(state, action.key, (m) => (m.description === action.value ? m : { ...m, description: action.value }), `desc|${action.key}`);
    case 'newModule':
      return edit(state, action.key, (m) => (m.newModule === action.value ? m : { ...m, newModule: action.value }));
    case 'restore':
      return edit(state, action.key, (m) => ({ ...m, products: action.products, description: action.description.slice(0, 100), revertOf: action.revertOf }));
    case 'undo':
    case 'redo': {
      const t = timeline(state);
      const moved = action.type === 'undo' ? undo(t) : redo(t);
      return moved === t ? state : { ...state, ...fromTimeline(moved), lastTag: null };
    }
  }
}

// ───────────── derived ─────────────

const signature = (p: ProductDto) => `${p.upc}:${p.mustHave ? 1 : 0}:${p.moduleCompositionStatus}:${p.minValue}`;
const editedCache = new WeakMap<ProductDto[], WeakMap<ProductDto[], boolean>>();

/** Has the composition changed since the server's version? (Memoised per pair of lists.) */
export function compositionEdited(m: EditorModule): boolean {
  if (m.products === m.dto.productDtoList) return false;
  let inner = editedCache.get(m.products);
  if (!inner) editedCache.set(m.products, (inner = new WeakMap()));
  const cached = inner.get(m.dto.productDtoList);
  if (cached !== undefined) return cached;
  const a = m.products;
  const b = m.dto.productDtoList;
  const edited = a.length !== b.length || a.some((p, i) => signature(p) !== signature(b[i]!));
  inner.set(b, edited);
  return edited;
}

export const isEdited = (m: EditorModule) => compositionEdited(m) || m.newModule !== m.dto.newModule;
export const isDescriptionEdited = (m: EditorModule) => m.description !== m.dto.moduleDescription;
export const hasChanges = (m: EditorModule) => isEdited(m) || isDescriptionEdited(m);

export const activeCounts = (products: readonly ProductDto[]) => {
  let mh = 0;
  let el = 0;
  for (const p of products) {
    if (p.moduleCompositionStatus === 'REMOVED') continue;
    if (p.mustHave) mh++;
    else el++;
  }
  return { mh, el };
};

/**
 * The previous month's MH and EL counts, or null when the previous month has no version of the module
 * to compare with (the server answers 0 and 0 then: no module that month, or one with no active SKU).
 */
export function previousCounts(m: EditorModule): { mh: number; el: number } | null {
  const { previousMustHave: mh, previousEligible: el } = m.dto;
  return mh === 0 && el === 0 ? null : { mh, el };
}

/** MH or EL count differs from the previous month's (the caution before saving); never for a module new this month. */
export function countsDifferFromPrevious(m: EditorModule): boolean {
  const previous = previousCounts(m);
  if (!previous) return false;
  const { mh, el } = activeCounts(m.products);
  return mh !== previous.mh || el !== previous.el;
}

/** One module's line of the caution: both numbers, e.g. "AU_SUN_01: this month 8 SKUs (MH 5, EL 3), previous month 7 SKUs (MH 4, EL 3)". */
export function countCautionLine(m: EditorModule): string {
  const now = activeCounts(m.products);
  const before = previousCounts(m) ?? { mh: 0, el: 0 };
  const skus = (n: number) => `${n} ${n === 1 ? 'SKU' : 'SKUs'}`;
  return `${m.dto.moduleName}: this month ${skus(now.mh + now.el)} (MH ${now.mh}, EL ${now.el}), previous month ${skus(before.mh + before.el)} (MH ${before.mh}, EL ${before.el})`;
}

/** The body of a save or publish call: the module with its working composition and description. */
export function toSaveBody(m: EditorModule, withDescription: boolean) {
  return {
    moduleName: m.dto.moduleName,
    monthId: m.dto.monthId,
    moduleDescription: m.dto.moduleDescription,
    newDescription: withDescription && isDescriptionEdited(m) ? m.description : null,
    newModule: m.newModule,
    isEdited: isEdited(m),
    isDescriptionEdited: withDescription && isDescriptionEdited(m),
    productDtoList: m.products.map((p) => ({ upc: p.upc, mustHave: p.mustHave, moduleCompositionStatus: p.moduleCompositionStatus, minValue: p.minValue })),
    // The version this page loaded (a save's answer refreshes it): a repeated or stale save is refused (409).
    version: m.dto.version,
  };
}
