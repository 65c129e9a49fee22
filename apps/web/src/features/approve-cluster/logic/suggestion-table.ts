import { SUGGESTION_FILTER_KEYS, type DecisionAnswer, type SuggestedCluster, type SuggestionFilterKey } from '@bo/shared/suggested-clusters';
import { formatMonthId } from '@bo/shared/months';

export interface SuggestionColumn {
  key: SuggestionFilterKey;
  /** The header a planner reads: the spec's own words where it has them (the expanded row's 'Stars Customer', 'Customer Segmentation', 'Store Id'), plain words otherwise. */
  label: string;
  /** Width in px at the table's narrowest; wider windows share the extra space in the same proportions. A value wider than its column is cut with an ellipsis and shown whole in a tooltip. */
  width: number;
  /** The cell holds the unique values of the suggestion's stores: the first and how many more. */
  list?: boolean;
}

/** The ten columns of the spec (part 2 §2 "Approve cluster page"), in its order. */
export const SUGGESTION_COLUMNS: readonly SuggestionColumn[] = [
  { key: 'country', label: 'Country', width: 68 },
  { key: 'userSuggest', label: 'Suggested by', width: 184 },
  { key: 'dateSuggest', label: 'Date', width: 116 },
  { key: 'originalAssortment', label: 'Original assortment', width: 136 },
  { key: 'assortmentId', label: 'Assortment id', width: 116 },
  { key: 'period', label: 'Period', width: 76 },
  { key: 'starsCustomer', label: 'Stars Customer', width: 96, list: true },
  { key: 'customerSegmentation', label: 'Customer Segmentation', width: 104, list: true },
  { key: 'storeJda', label: 'Store Id', width: 88, list: true },
  { key: 'status', label: 'Status', width: 96 },
];

/** The expander before the columns and the Approve / Reject buttons after them. */
export const EXPAND_COLUMN_WIDTH = 32;
export const ACTIONS_COLUMN = { label: 'Actions', width: 76 } as const;

/** The table's narrowest width: below it the table scrolls inside its frame, never the page. */
export const SUGGESTION_TABLE_MIN_WIDTH = EXPAND_COLUMN_WIDTH + ACTIONS_COLUMN.width + SUGGESTION_COLUMNS.reduce((sum, c) => sum + c.width, 0);

/** The date filter's placeholder: the day/month/year the dates are shown in (contract §5; spec 'dd/MM/y'). */
export const DATE_FILTER_PLACEHOLDER = 'dd/mm/yyyy';

export type SuggestionFilters = Partial<Record<SuggestionFilterKey, readonly string[]>>;

/** A cell's values: one for the plain columns, the unique values for the three store lists. */
export function valuesOf(row: SuggestedCluster, key: SuggestionFilterKey): readonly string[] {
  const v = row[key];
  return Array.isArray(v) ? v : [v];
}

/**
 * Every column filter keeps a row when nothing is picked in it or when one of the row's values is picked
 * (a list column matches when any of its values is chosen); the filters together keep what all of them keep.
 */
export function matchesFilters(row: SuggestedCluster, filters: SuggestionFilters): boolean {
  return SUGGESTION_FILTER_KEYS.every((k) => {
    const picked = filters[k];
    return !picked?.length || valuesOf(row, k).some((v) => picked.includes(v));
  });
}

/** The message popup's lines after a decision: the server's status message, then what the approval did. */
export function decisionLines(answer: DecisionAnswer): string[] {
  const lines = [answer.message];
  if (answer.clusterId) lines.push(answer.monthId ? `Cluster ${answer.clusterId} (${formatMonthId(answer.monthId)})` : `Cluster ${answer.clusterId}`);
  if (answer.skippedModules.length) lines.push(`Modules not available in the month, left out: ${answer.skippedModules.join(', ')}`);
  return lines;
}
