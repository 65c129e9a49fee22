import { formatMonthId } from '@bo/shared/months';
import type { MassiveEditRowResult } from '@bo/shared/massive-edit';

/**
 * A row of the preview in one line (issue 34 item 7): a classification row changes its clusters in every open
 * month alike, so instead of one block per cluster-month it says which clusters, in how many months, what
 * changes, and what fails (grouped by reason, with its cluster-months).
 */
interface RowDigest {
  /** "C1 label · C1, C2" — the items the row names, each once. */
  items: string;
  /** "in 14 months" / "in 03/2027". */
  months: string;
  /** The changes, each once, in order. */
  changes: string[];
  /** "Unknown client classification X — C1 (14 months)". */
  failures: string[];
  /** Item-months with nothing to change. */
  unchanged: number;
}

const monthsText = (months: readonly string[]) => (months.length === 1 ? `in ${formatMonthId(months[0]!)}` : `in ${months.length} months`);

export function rowDigest(row: MassiveEditRowResult): RowDigest {
  const names = [...new Set(row.items.map((i) => (i.label && i.label !== i.itemKey ? `${i.label} (${i.itemKey})` : i.itemKey)))];
  const months = [...new Set(row.items.map((i) => i.monthId).filter(Boolean))];
  const changes = [...new Set(row.items.filter((i) => i.outcome === 'applied').flatMap((i) => i.changes))];
  const byReason = new Map<string, { items: Set<string>; months: Set<string> }>();
  for (const i of row.items.filter((x) => x.outcome === 'failed')) {
    const reason = i.reason ?? 'It would fail.';
    const entry = byReason.get(reason) ?? { items: new Set(), months: new Set() };
    entry.items.add(i.itemKey);
    if (i.monthId) entry.months.add(i.monthId);
    byReason.set(reason, entry);
  }
  const failures = [...byReason].map(([reason, e]) => `${reason} — ${[...e.items].join(', ')}${e.months.size ? ` (${monthsText([...e.months])})` : ''}`);
  return { items: names.join(', '), months: months.length ? monthsText(months) : '', changes, failures, unchanged: row.items.filter((i) => i.outcome === 'unchanged').length };
}
