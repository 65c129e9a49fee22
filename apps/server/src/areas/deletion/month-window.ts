import { addMonths, compareMonthIds, toMonthId } from '@bo/shared/months';

/** The Deletion Area shows 15 months back and 15 forward around the current month (part 2 §9). */
const DELETION_WINDOW_MONTHS = 15;

/** The current month of `now`, taken in UTC so every server process agrees: M{mm}_{yyyy}. */
export const currentMonthId = (now: Date) => toMonthId(now.getUTCFullYear(), now.getUTCMonth() + 1);

/** The window's months that exist in the months table, sorted by year then month. */
export function monthWindow(existing: readonly { monthId: string }[], now: Date): string[] {
  const current = currentMonthId(now);
  const from = addMonths(current, -DELETION_WINDOW_MONTHS);
  const to = addMonths(current, DELETION_WINDOW_MONTHS);
  return existing
    .map((m) => m.monthId)
    .filter((id) => compareMonthIds(id, from) >= 0 && compareMonthIds(id, to) <= 0)
    .sort(compareMonthIds);
}
