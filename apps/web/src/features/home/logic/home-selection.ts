import type { FilterOption, FilterOptions, SearchFilters } from '@bo/shared/search';
import { formatMonthId } from '../../../lib/format';

/** The home sidebar's choices: step 1 (one month) and step 2 (the multi filters). */
export interface HomeSelection {
  monthId: string | null;
  planningChannel: string[];
  brand: string[];
  collection: string[];
  starsZone: string[];
}

export type RefineKey = 'planningChannel' | 'brand' | 'collection' | 'starsZone';
export const REFINE_KEYS: readonly RefineKey[] = ['planningChannel', 'brand', 'collection', 'starsZone'];
export const REFINE_LABELS: Record<RefineKey, string> = {
  planningChannel: 'Planning Channel',
  brand: 'Brand',
  collection: 'collection',
  starsZone: 'Stars zone',
};

export const EMPTY_SELECTION: HomeSelection = { monthId: null, planningChannel: [], brand: [], collection: [], starsZone: [] };

/** Search needs a month and at least one other filter (part 1 §2). */
export const canSearch = (s: HomeSelection) => !!s.monthId && REFINE_KEYS.some((k) => s[k].length > 0);

export function toFilters(s: HomeSelection): SearchFilters {
  return {
    monthId: s.monthId ? [s.monthId] : [],
    planningChannel: s.planningChannel,
    brand: s.brand,
    collection: s.collection,
    starsZone: s.starsZone,
  };
}

/**
 * The options of a refine filter: the union of what modules and clusters offer (a brand with clusters
 * but no modules still finds something), plus the values already chosen, labelled from the initial list.
 */
export function mergeOptions(key: RefineKey, lists: readonly (FilterOptions | undefined)[], chosen: readonly string[], initial?: FilterOptions): FilterOption[] {
  const byValue = new Map<string, FilterOption>();
  for (const list of lists) for (const o of list?.[key] ?? []) byValue.set(o.value, o);
  for (const value of chosen) if (!byValue.has(value)) byValue.set(value, initial?.[key]?.find((o) => o.value === value) ?? { value, label: value });
  return [...byValue.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/** 'You searched:' — the chosen values, by filter, with their labels. */
export function summaryOf(s: HomeSelection, initial?: FilterOptions): { label: string; values: string[] }[] {
  const label = (key: RefineKey, value: string) => initial?.[key]?.find((o) => o.value === value)?.label ?? value;
  const out: { label: string; values: string[] }[] = [];
  if (s.monthId) out.push({ label: 'Month', values: [formatMonthId(s.monthId)] });
  for (const key of REFINE_KEYS) if (s[key].length) out.push({ label: REFINE_LABELS[key], values: s[key].map((v) => label(key, v)) });
  return out;
}

// The home keeps its search across a visit to another screen of the same tab.
const STORAGE_KEY = 'bo.home.search';

interface StoredHomeState {
  selection: HomeSelection;
  searched: HomeSelection | null;
}

export function loadHomeState(): StoredHomeState | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredHomeState>;
    const valid = (x: unknown): x is HomeSelection =>
      !!x && typeof x === 'object' && REFINE_KEYS.every((k) => Array.isArray((x as HomeSelection)[k]));
    if (!valid(parsed.selection)) return null;
    return { selection: parsed.selection, searched: valid(parsed.searched) ? parsed.searched : null };
  } catch {
    return null;
  }
}

export function saveHomeState(state: StoredHomeState): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // storage full or disabled: the search simply does not survive navigation
  }
}
