import { ITEM_STATUSES } from '@bo/shared/statuses';

/**
 * How a home column orders its rows (docs/web-app.md "Home result rows"). The whole answer is in the
 * browser (a search lists at most MAX_SEARCH_RESULTS items, without pages), so sorting is client-side.
 * `default` keeps the server's order: special families first, then families, labels and names.
 */
export type SortKey = 'default' | 'name' | 'status' | 'lastChange';
type SortDirection = 'asc' | 'desc';
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

export const SORT_LABELS: Record<SortKey, string> = { default: 'Family', name: 'Name', status: 'Status', lastChange: 'Last change' };

/** Each key's first direction: names A→Z, statuses in lifecycle order, last change newest first. */
export const FIRST_DIRECTION: Record<SortKey, SortDirection> = { default: 'asc', name: 'asc', status: 'asc', lastChange: 'desc' };

/** Choosing the key in use flips its direction; another key starts at its first direction. */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.key === key && key !== 'default') return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: FIRST_DIRECTION[key] };
}

export interface Sortable {
  /** What the row shows as its name. */
  name: string;
  status?: string | null;
  /** ISO 8601 */
  updatedAt?: string | null;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byText = (a: string, b: string) => byCodePoint(a.toLowerCase(), b.toLowerCase()) || byCodePoint(a, b);
const statusRank = (s: string | null | undefined) => {
  const i = (ITEM_STATUSES as readonly string[]).indexOf(s ?? '');
  return i < 0 ? ITEM_STATUSES.length : i;
};
const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) || 0 : 0);

/**
 * The items in the chosen order, as a new array (the input is left alone). Ties keep the server's
 * order (the sort is stable), so "Status" lists each status in the default order.
 */
export function sortItems<T>(items: readonly T[], sort: SortState, view: (item: T) => Sortable): readonly T[] {
  if (sort.key === 'default') return sort.direction === 'asc' ? items : [...items].reverse();
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = items.map((item, index) => ({ item, index, v: view(item) }));
  const compare = {
    name: (a: Sortable, b: Sortable) => byText(a.name, b.name),
    status: (a: Sortable, b: Sortable) => statusRank(a.status) - statusRank(b.status),
    lastChange: (a: Sortable, b: Sortable) => time(a.updatedAt) - time(b.updatedAt),
  }[sort.key];
  keyed.sort((a, b) => sign * compare(a.v, b.v) || a.index - b.index);
  return keyed.map((k) => k.item);
}
