/**
 * What the list areas (the Pending Area, the Discontinuation / Removed Area) share: who may use one,
 * one page of its rows, and the order of its filters' options. The order does not depend on the
 * database's collation nor on Node's locale, so both areas list the same options alike.
 */
import type { Grant, PermissionType } from '@bo/shared/grants';
import { compareMonthIds } from '@bo/shared/months';
import { forbidden } from './errors.js';
import { byText } from './text-order.js';
import { visibilityOf, type Visibility } from './visibility.js';

/**
 * The rows an area shows the caller (those of `levels`, by default the viewable ones), when its right
 * `mayUse` allows the caller in; 403 with the area's `noRight` text otherwise.
 */
export function areaVisibility(grants: readonly Grant[], mayUse: (grants: readonly Grant[]) => boolean, noRight: string, levels?: readonly PermissionType[]): Visibility {
  if (!mayUse(grants)) throw forbidden(noRight);
  return visibilityOf(grants, levels);
}

/** The rows of page `pageIndex` (zero-based) of a list of `count` rows; past the end none, without reading. */
export async function pageRows<T>(count: number, pageIndex: number, pageSize: number, read: (offset: number, limit: number) => Promise<T[]>): Promise<T[]> {
  const offset = pageIndex * pageSize;
  return offset < count ? read(offset, pageSize) : [];
}

/** A filter option as the areas answer it: the value sent back and the label shown. */
interface FilterOption {
  value: string;
  label: string;
}

/** How a filter's values compare: as month ids, as numbers, or as text. */
export type OptionValues = 'months' | 'numbers' | 'text';

const ORDERS: Record<OptionValues, (a: FilterOption, b: FilterOption) => number> = {
  months: (a, b) => compareMonthIds(a.value, b.value),
  numbers: (a, b) => Number(a.value) - Number(b.value) || byText(a.value, b.value),
  // By label then value, case-insensitive then by code point (text-order.ts `byText`).
  text: (a, b) => byText(a.label, b.label) || byText(a.value, b.value),
};

/** Sorts a filter's options in place, in the order of its kind of values, and answers them. */
export function sortOptions<T extends FilterOption>(options: T[], values: OptionValues): T[] {
  return options.sort(ORDERS[values]);
}
