import type { ClusterDeletionItem, DeletionMonth, DeletionMonthStatus, ModuleDeletionItem } from '@bo/shared/deletion';
import { formatMonthId } from '@bo/shared/months';
import { DELETION_STATUSES } from '@bo/shared/statuses';

/** The two views of the page (the Modules/Clusters switch); also the restore call's viewType. */
export type DeletionView = 'module' | 'cluster';

/** One row of the table, whichever the view: the item's key and label plus what both item kinds carry. */
export interface DeletionRow {
  key: string;
  label: string;
  status: DeletionMonthStatus;
  brand: string;
  errorMessage: string | null;
  deleteFromMonthId: string;
  openMonthList: DeletionMonth[];
}

/** Client-side page size (part 2 §9: "50 items per page client-side"). */
export const DELETION_PAGE_SIZE = 50;

/**
 * The status checkboxes, all checked at first: the deletion statuses, and ACTIVE for an item whose
 * deletion was restored (the server keeps listing it; unchecking ACTIVE hides it).
 */
export const STATUS_FILTERS: readonly DeletionMonthStatus[] = [...DELETION_STATUSES, 'ACTIVE'];

/** Spec texts of the page (part 2 §2, §4, §5, §8), copied once. */
export const DELETION_AREA_TEXTS = {
  loadFailed: 'Failed to load data. Please try again.',
  loadError: (message: string) => `Error: ${message}`,
  itemError: 'An error occurred during deletion.',
  emptyCriteria: 'No items found for the selected criteria.',
  emptyStatus: 'No items found matching the selected status filters.',
  noStatus: 'Please select at least one status filter to view items.',
  noneSelected: 'No items selected for restoration.',
  restoreFailed: (view: DeletionView) => `Failed to restore ${view}s.`,
  restoreButton: (n: number) => `Restore Selected (${n})`,
  restoring: 'Restoring...',
  noRestoreRight: 'Restoring needs the delete right on the item’s brand and zone',
  confirmTitle: 'Confirm Restoration',
  confirmQuestion: (view: DeletionView) => `Are you sure you want to restore the following ${view}(s)?`,
} as const;

export function toRow(view: 'module', item: ModuleDeletionItem): DeletionRow;
export function toRow(view: 'cluster', item: ClusterDeletionItem): DeletionRow;
export function toRow(view: DeletionView, item: ModuleDeletionItem | ClusterDeletionItem): DeletionRow {
  const { status, brand, errorMessage, deleteFromMonthId, openMonthList } = item;
  const [key, label] =
    view === 'module'
      ? [(item as ModuleDeletionItem).moduleName, (item as ModuleDeletionItem).moduleLabel]
      : [(item as ClusterDeletionItem).clusterId, (item as ClusterDeletionItem).clusterLabel];
  return { key, label, status, brand, errorMessage, deleteFromMonthId, openMonthList };
}

/** Only DELETION_PENDING items can be selected and restored (part 2 §4). */
export const isRestorable = (row: Pick<DeletionRow, 'status'>) => row.status === 'DELETION_PENDING';

/** An error row: a DELETION_ERROR item, or any item whose deletion carries a message. */
export function rowError(row: Pick<DeletionRow, 'status' | 'errorMessage'>): string | null {
  if (row.errorMessage) return row.errorMessage;
  return row.status === 'DELETION_ERROR' ? DELETION_AREA_TEXTS.itemError : null;
}

export type DotColor = 'green' | 'yellow' | 'red';

/**
 * A month cell's dot (part 2 §2): yellow when the item was created again after its deletion, green when
 * it is visible in the UI, red otherwise (deleted, ready to be deleted, or default). A month created again
 * is also live, so yellow is checked first.
 */
export function dotColor(month: Pick<DeletionMonth, 'createdAfterDelete' | 'uiVisible'>): DotColor {
  if (month.createdAfterDelete) return 'yellow';
  if (month.uiVisible) return 'green';
  return 'red';
}

/**
 * A red dot means three things in the spec (deleted, ready to be deleted, or no row at all): a month where
 * the item never was is drawn as a red ring, so the page tells "deleted" from "never existed" at a glance.
 */
export const isAbsentMonth = (month: Pick<DeletionMonth, 'status'>) => month.status === 'NOT_PRESENT';

/** The legend under the filters, one entry per kind of dot (filled, or ring for a month without the item). */
export const DOT_LEGEND: readonly { color: DotColor; ring: boolean; text: string }[] = [
  { color: 'green', ring: false, text: 'In use this month' },
  { color: 'yellow', ring: false, text: 'Created again after the deletion' },
  { color: 'red', ring: false, text: 'Deleted, or being deleted' },
  { color: 'red', ring: true, text: 'Not in this month' },
];

/** 'DELETION_PENDING' → 'Deletion pending'; 'NOT_PRESENT' → 'Not present'. */
export function statusText(status: string): string {
  const words = status.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The dot's tooltip: 'label - month: status label'. */
export const monthTooltip = (label: string, month: Pick<DeletionMonth, 'monthId' | 'status'>) =>
  `${label} - ${formatMonthId(month.monthId)}: ${statusText(month.status)}`;

/** The month columns: the window the server sends (the same for every item), in its order. */
export function windowMonths(rows: readonly DeletionRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const m of row.openMonthList) seen.add(m.monthId);
  return [...seen];
}

/** The empty table's text: no status checked, some unchecked, or all checked. */
export function emptyMessage(checked: readonly string[]): string {
  if (checked.length === 0) return DELETION_AREA_TEXTS.noStatus;
  return checked.length < STATUS_FILTERS.length ? DELETION_AREA_TEXTS.emptyStatus : DELETION_AREA_TEXTS.emptyCriteria;
}

/** The select-all box of the page: checked when every restorable row of the page is selected. */
export function pageSelection(pageKeys: readonly string[], selected: ReadonlySet<string>): { all: boolean; some: boolean } {
  const chosen = pageKeys.filter((k) => selected.has(k)).length;
  return { all: pageKeys.length > 0 && chosen === pageKeys.length, some: chosen > 0 && chosen < pageKeys.length };
}

/** Select-all toggles the page's restorable rows only, keeping the other pages' choices. */
export function togglePage(pageKeys: readonly string[], selected: ReadonlySet<string>): Set<string> {
  const next = new Set(selected);
  if (pageSelection(pageKeys, selected).all) for (const k of pageKeys) next.delete(k);
  else for (const k of pageKeys) next.add(k);
  return next;
}

/**
 * What a failed restore says (part 2 §8): the message of the answer's data, else the error's message,
 * else 'Failed to restore {view}s.'.
 */
export function restoreFailureText(view: DeletionView, error: unknown): string {
  const data = (error as { data?: { message?: unknown } } | null)?.data?.message;
  if (typeof data === 'string' && data) return data;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && message) return message;
  return DELETION_AREA_TEXTS.restoreFailed(view);
}
