// The Italian formatting helpers live in packages/shared (the server's PDF export uses them too).
// Screens import every formatter from here, months included: this file is the web app's one door to them.
import { compareMonthIds, formatMonthId, parseMonthId, toMonthId } from '@bo/shared/months';

export * from '@bo/shared/format';

/**
 * Months read the Italian way everywhere a planner sees one: `M11_2026` → `11/2026` (docs/web-app.md
 * "Months"). Never render a month id any other way.
 */
export { formatMonthId };

/** A month with its state, as GET /api/month/all answers it. */
interface MonthState {
  monthId: string;
  open: boolean;
}

const CLOSED_MONTH_MARK = '(closed)';

/** A month as a choice in a list: `11/2026`, or `11/2026 (closed)` for a closed month. */
export function formatMonthOption(month: MonthState): string {
  const label = formatMonthId(month.monthId);
  return month.open ? label : `${label} ${CLOSED_MONTH_MARK}`;
}

/**
 * Select options for months, oldest first. `openOnly` leaves closed months out (lists that lead to an
 * edit, a creation or a copy); otherwise they stay, marked "(closed)" (searching a closed month is fine).
 */
export function monthOptions(months: readonly MonthState[], { openOnly = false }: { openOnly?: boolean } = {}): { value: string; label: string }[] {
  return [...months]
    .filter((m) => !openOnly || m.open)
    .sort((a, b) => compareMonthIds(a.monthId, b.monthId))
    .map((m) => ({ value: m.monthId, label: formatMonthOption(m) }));
}

/** Today's month id (local calendar). */
export const monthIdOf = (date: Date) => toMonthId(date.getFullYear(), date.getMonth() + 1);

/**
 * The month a month list starts at: today's month if it is open, else the first open month after it,
 * else the last open month before it; null when no month is open. Closed months are never chosen.
 */
export function currentMonth(months: readonly MonthState[], today: Date = new Date()): string | null {
  const now = monthIdOf(today);
  const open = months
    .filter((m) => m.open && parseMonthId(m.monthId))
    .map((m) => m.monthId)
    .sort(compareMonthIds);
  return open.find((m) => compareMonthIds(m, now) >= 0) ?? open.at(-1) ?? null;
}
