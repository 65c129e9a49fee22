/**
 * What a copy did (issue 34 item 2), for modules and clusters alike: per item the destination months copied,
 * published (submission started), copied but not published (with the reason) and not copied (failed), and
 * the counts of item-months. The copy job's result and the copy calls' answers carry it; the copy popups show
 * it with `copySummary` and `copyResultLines`.
 */
import { z } from 'zod';
import { formatMonthId } from './months.js';

const copyCountsSchema = z.object({
  /** Item-months copied (whatever happened when publishing them). */
  copied: z.number().int(),
  /** Copied item-months whose submission to the planning system started (Save & Publish). */
  published: z.number().int(),
  /** Copied item-months that were not published (Save & Publish), with a reason in `notPublished`. */
  notPublished: z.number().int(),
  /** Item-months not copied. */
  failed: z.number().int(),
});

/** Months of one item, and why (not published / not copied). */
const copyMonthsSchema = z.object({ itemKey: z.string(), months: z.array(z.string()) });
const copyMonthsWhySchema = copyMonthsSchema.extend({ message: z.string() });

/** The truthful part of a copy's result: who was copied, published, not published, not copied, per month. */
export const copyOutcomeSchema = z.object({
  toPublish: z.boolean(),
  counts: copyCountsSchema,
  copiedMonths: z.array(copyMonthsSchema),
  publishedMonths: z.array(copyMonthsSchema),
  notPublished: z.array(copyMonthsWhySchema),
  failed: z.array(copyMonthsWhySchema),
});
export type CopyOutcome = z.infer<typeof copyOutcomeSchema>;

/** "Copied 3 · Published 1 · Not published 2 · Failed 0" (publish counts only on Save & Publish). */
export function copySummary(outcome: Pick<CopyOutcome, 'counts' | 'toPublish'>): string {
  const { counts } = outcome;
  const parts = [`Copied ${counts.copied}`];
  if (outcome.toPublish) parts.push(`Published ${counts.published}`, `Not published ${counts.notPublished}`);
  parts.push(`Failed ${counts.failed}`);
  return parts.join(' · ');
}

const months = (list: readonly string[]) => list.map(formatMonthId).join(', ');

/** The copy jobs' publish refusals start with 'Copied, but (not published: )…': the line already says so. */
const withoutCopiedPrefix = (message: string) => {
  const rest = message.replace(/^Copied, but (not published: )?/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
};

/** One line per item and outcome, with its tone: what was copied and published, copied only, not copied. */
export function copyResultLines(kind: 'module' | 'cluster', outcome: CopyOutcome): { text: string; tone: 'success' | 'warning' | 'error' }[] {
  const lines: { text: string; tone: 'success' | 'warning' | 'error' }[] = [];
  for (const c of outcome.copiedMonths) lines.push({ text: `Copied ${kind} ${c.itemKey} for the months: ${months(c.months)}`, tone: 'success' });
  if (outcome.toPublish) {
    for (const p of outcome.publishedMonths) lines.push({ text: `Published ${kind} ${p.itemKey} (submission started) for the months: ${months(p.months)}`, tone: 'success' });
    for (const n of outcome.notPublished) lines.push({ text: `Copied but NOT published: ${kind} ${n.itemKey} (${months(n.months)}): ${withoutCopiedPrefix(n.message)}`, tone: 'warning' });
  }
  for (const f of outcome.failed) lines.push({ text: `Not copied: ${kind} ${f.itemKey} (${months(f.months)}): ${f.message}`, tone: 'error' });
  return lines;
}
