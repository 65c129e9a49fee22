import {
  STATISTIC_FIELDS,
  STATISTIC_MAX,
  STATISTIC_MIN,
  type StatisticField,
  type StatisticFilter,
  type StatisticFilterOptions,
  type StatisticOption,
} from '@bo/shared/statistics';

/**
 * The Statistics page's sliders (part 2 §2, §5, §9; docs/statistics.md): one per value of each category,
 * 0–100 % by default. Only the moved ones (not the whole 0–100) become filters of the search; Search and
 * Reset all need at least one moved.
 */
export type Range = readonly [number, number];
const FULL_RANGE: Range = [STATISTIC_MIN, STATISTIC_MAX];

/** A slider's key: its category and value. */
export const sliderKey = (field: StatisticField, value: string) => `${field}|${value}`;

/** The moved sliders only (a missing key is at 0–100). */
export type SliderRanges = Readonly<Record<string, Range>>;

const isFull = (r: Range) => r[0] === STATISTIC_MIN && r[1] === STATISTIC_MAX;

/** Sets one slider; back at 0–100 it is no longer moved. */
export function setRange(ranges: SliderRanges, key: string, range: Range): SliderRanges {
  const next = { ...ranges };
  if (isFull(range)) delete next[key];
  else next[key] = [range[0], range[1]];
  return next;
}

export const rangeOf = (ranges: SliderRanges, key: string): Range => ranges[key] ?? FULL_RANGE;

export const anyMoved = (ranges: SliderRanges) => Object.values(ranges).some((r) => !isFull(r));

/** The search's filter entries: one per moved slider, in the page's order (category, then value). */
export function toFilters(ranges: SliderRanges, options: StatisticFilterOptions): StatisticFilter[] {
  const filters: StatisticFilter[] = [];
  for (const field of STATISTIC_FIELDS) {
    for (const option of options[field]) {
      const range = ranges[sliderKey(field, option.value)];
      if (range && !isFull(range)) filters.push({ field, searchValue: option.value, minRange: range[0], maxRange: range[1] });
    }
  }
  return filters;
}

/** The categories that have values, in the page's order. */
export const categoriesOf = (options: StatisticFilterOptions): { field: StatisticField; options: StatisticOption[] }[] =>
  STATISTIC_FIELDS.map((field) => ({ field, options: options[field] })).filter((c) => c.options.length > 0);

/** What the page reads from its URL (home's `statisticsUrl`): the month, brands and collections. */
interface StatisticScope {
  monthId: string;
  brand: string[];
  collection: string[];
}

export function scopeFromQuery(params: URLSearchParams): StatisticScope | null {
  const monthId = params.get('monthId');
  const brand = [...new Set(params.getAll('brand').filter(Boolean))];
  if (!monthId || !/^M(0[1-9]|1[0-2])_\d{4}$/.test(monthId) || brand.length === 0) return null;
  return { monthId, brand, collection: [...new Set(params.getAll('collection').filter(Boolean))] };
}
