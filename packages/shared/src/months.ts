/** Month ids look like M{mm}_{yyyy} (M03_2027) and sort by year, then month. */
const MONTH_ID = /^M(\d{2})_(\d{4})$/;

export function parseMonthId(monthId: string): { year: number; month: number } | null {
  const m = MONTH_ID.exec(monthId);
  if (!m) return null;
  const month = Number(m[1]);
  const year = Number(m[2]);
  if (month < 1 || month > 12) return null;
  return { year, month };
}

export function isMonthId(value: string): boolean {
  return parseMonthId(value) !== null;
}

export function toMonthId(year: number, month: number): string {
  return `M${String(month).padStart(2, '0')}_${year}`;
}

/** Orders month ids by year then month; unknown shapes sort last, alphabetically. */
export function compareMonthIds(a: string, b: string): number {
  const pa = parseMonthId(a);
  const pb = parseMonthId(b);
  if (pa && pb) return pa.year - pb.year || pa.month - pb.month;
  if (pa) return -1;
  if (pb) return 1;
  return a.localeCompare(b);
}

export function addMonths(monthId: string, delta: number): string {
  const p = parseMonthId(monthId);
  if (!p) throw new Error(`Not a month id: ${monthId}`);
  const index = p.year * 12 + (p.month - 1) + delta;
  return toMonthId(Math.floor(index / 12), (index % 12) + 1);
}

/** "M03_2027" → "03/2027" for people. */
export function formatMonthId(monthId: string): string {
  const p = parseMonthId(monthId);
  return p ? `${String(p.month).padStart(2, '0')}/${p.year}` : monthId;
}
