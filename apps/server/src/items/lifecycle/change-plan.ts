/**
 * How a massive edit request becomes steps, and steps become the per-row result (docs/MASSIVE-EDIT.md).
 *
 * Each row names items (names or labels) and months; `resolveRows` turns them into steps, one per
 * (row, item, month), in row order, plus the failures known before any step (a name that means no
 * item). The preview (`previewSteps`) and the job (change-job.ts) run the same decision of the
 * lifecycle core on each step; `assembleResult` turns the step outcomes into the answer both give.
 */
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import { PUBLISH_DIFF_MAX_ITEMS } from '@bo/shared/item-versions';
import { formatMonthId } from '@bo/shared/months';
import {
  notAuthorizedText,
  shortPublishReason,
  type MassiveEditCounts,
  type MassiveEditItemOutcome,
  type MassiveEditPublishDiff,
  type MassiveEditResult,
  type MassiveEditRowResult,
  type MassiveEditType,
  type NotAuthorizedItems,
} from '@bo/shared/massive-edit';
import type { Queryable } from '../../db/client.js';
import type { MonthState } from './months.repository.js';
import { decideChange, factsAfter, loadChangeFacts, type ChangeKind, type VersionedRow } from './item-change.js';
import type { JobCaller } from './job-caller.js';
import { publishRefusals, type PublishChangedKind } from './publish-changed.js';

/** An item-month a row's name or label means. */
export interface NamedItem {
  /** moduleName or clusterId */
  itemKey: string;
  label: string;
  monthId: string;
}

/** One kind of massive edit row: module, cluster or classification. */
export interface EditType<Row extends VersionedRow, Content, Edit, Env> {
  type: MassiveEditType;
  jobKind: string;
  change: ChangeKind<Row, Content, Edit, Env>;
  /** Save & Publish: how changed items are published (null: this type is never published). */
  publish: PublishChangedKind<Row> | null;
  /** The row's item names or labels. */
  tokens(edit: Edit): string[];
  /** The row's months; [] = every open month where the item lives. */
  months(edit: Edit): string[];
  named(db: Queryable, tokens: readonly string[]): Promise<NamedItem[]>;
  env(db: Queryable, edits: readonly Edit[]): Promise<Env>;
  texts: { unknownItem(token: string): string; noOpenMonth(token: string): string };
  /** What publishing the item with its planned content would change (docs/versions.md); absent when `publish` is null. */
  publishDiff?(db: Queryable, item: PlannedItem<Row, Content>): Promise<{ module: MassiveEditPublishDiff['modules'][number] } | { cluster: MassiveEditPublishDiff['clusters'][number] }>;
}

/** One (row, item, month) to change. `row` is 0-based. */
export interface Step {
  row: number;
  itemKey: string;
  label: string;
  monthId: string;
}

/** A step's outcome as recorded (job_steps) or simulated. */
export interface StepOutcome {
  row: number;
  itemKey: string;
  label: string;
  monthId: string;
  outcome: 'applied' | 'unchanged' | 'failed';
  changes: string[];
  reason: string | null;
  notAuthorized: boolean;
}

export interface ResolvedRows {
  steps: Step[];
  /** Failures known before any step: names that mean no item, items with no open month. */
  failures: StepOutcome[];
}

const failure = (row: number, token: string, monthId: string, reason: string): StepOutcome => ({
  row,
  itemKey: token,
  label: token,
  monthId,
  outcome: 'failed',
  changes: [],
  reason,
  notAuthorized: false,
});

/**
 * The steps of the rows (pure): a token is an item's name, else a label (case-insensitive) of items in
 * some month. With months, one step per month (an item missing in a month fails there, naming it);
 * without, one per open month where the item lives. Each item-month once per row.
 */
export function resolveRows<Edit>(
  type: Pick<EditType<VersionedRow, unknown, Edit, unknown>, 'tokens' | 'months' | 'texts'>,
  edits: readonly Edit[],
  named: readonly NamedItem[],
  months: ReadonlyMap<string, MonthState>,
): ResolvedRows {
  const byName = new Map<string, NamedItem[]>();
  const byLabel = new Map<string, NamedItem[]>();
  for (const n of named) {
    byName.set(n.itemKey, [...(byName.get(n.itemKey) ?? []), n]);
    const label = n.label.toLowerCase();
    byLabel.set(label, [...(byLabel.get(label) ?? []), n]);
  }
  const isOpen = (monthId: string) => {
    const m = months.get(monthId);
    return !!m && m.exists && m.open && !m.releaseClosed;
  };
  const steps: Step[] = [];
  const failures: StepOutcome[] = [];
  edits.forEach((edit, row) => {
    const seen = new Set<string>();
    const add = (step: Step) => {
      const key = itemKeyString(step);
      if (seen.has(key)) return;
      seen.add(key);
      steps.push(step);
    };
    const rowMonths = type.months(edit);
    for (const token of type.tokens(edit)) {
      const matches = byName.get(token) ?? byLabel.get(token.toLowerCase()) ?? [];
      if (matches.length === 0) {
        failures.push(failure(row, token, rowMonths[0] ?? '', type.texts.unknownItem(token)));
        continue;
      }
      if (rowMonths.length) {
        for (const monthId of rowMonths) {
          const here = matches.filter((m) => m.monthId === monthId);
          if (here.length) for (const m of here) add({ row, itemKey: m.itemKey, label: m.label, monthId });
          else {
            // Not in that month: the step fails there, naming the item the token means elsewhere.
            const names = [...new Set(matches.map((m) => m.itemKey))];
            add({ row, itemKey: names.length === 1 ? names[0]! : token, label: matches[0]!.label, monthId });
          }
        }
        continue;
      }
      const open = matches.filter((m) => isOpen(m.monthId));
      if (open.length === 0) failures.push(failure(row, token, '', type.texts.noOpenMonth(token)));
      for (const m of open) add({ row, itemKey: m.itemKey, label: m.label, monthId: m.monthId });
    }
  });
  return { steps, failures };
}

/** The outcome of a step from the core's decision. */
export function stepOutcome(step: Step, decision: ReturnType<typeof decideChange>, label: string): StepOutcome {
  return {
    row: step.row,
    itemKey: step.itemKey,
    label,
    monthId: step.monthId,
    outcome: decision.outcome,
    changes: decision.outcome === 'applied' ? decision.changes : [],
    reason: decision.outcome === 'failed' ? decision.reason : null,
    notAuthorized: decision.outcome === 'failed' && !!decision.notAuthorized,
  };
}

/** An item-month the rows change, as stored now (`row`) and as it will be once they apply (`content`). */
export interface PlannedItem<Row, Content> {
  row: Row;
  content: Content;
}

/**
 * The preview: every step decided in order on facts read once, each applied decision carried to the
 * steps after it (a later row on the same item sees the earlier row's change). Writes nothing. Also
 * answers the item-months the rows change, in the order of their first change, with their final content.
 */
export async function previewSteps<Row extends VersionedRow, Content, Edit, Env>(
  db: Queryable,
  type: EditType<Row, Content, Edit, Env>,
  edits: readonly Edit[],
  steps: readonly Step[],
  caller: Pick<JobCaller, 'username' | 'grants'>,
  toPublish: boolean,
  lockTtlMinutes: number,
): Promise<{ outcomes: StepOutcome[]; planned: PlannedItem<Row, Content>[] }> {
  const { change } = type;
  const env = await type.env(db, edits);
  const keys: ItemKeyParts[] = steps.map((s) => ({ itemKey: s.itemKey, monthId: s.monthId }));
  const facts = await loadChangeFacts(db, change as ChangeKind<Row, Content, unknown, unknown>, keys, lockTtlMinutes);
  const stored = new Map(facts);
  const changed: string[] = [];
  const outcomes = steps.map((step) => {
    const key = { itemKey: step.itemKey, monthId: step.monthId };
    const current = facts.get(itemKeyString(key));
    const decision = decideChange(change, current, key, edits[step.row]!, env, caller, toPublish);
    if (decision.outcome === 'applied' && current) {
      if (current === stored.get(itemKeyString(key))) changed.push(itemKeyString(key));
      facts.set(itemKeyString(key), factsAfter(change as ChangeKind<Row, Content, unknown, unknown>, current, decision.next));
    }
    return stepOutcome(step, decision, current ? change.label(current.row) : step.label);
  });
  // The stored row, not the simulated one: its status still says whether it was published (a change reopens it).
  const planned = changed.map((key) => ({ row: stored.get(key)!.row, content: facts.get(key)!.content }));
  return { outcomes, planned };
}

/**
 * Save & Publish's preview: what publishing each changed item-month would change (the item-versions diff of its
 * planned content), for the first PUBLISH_DIFF_MAX_ITEMS of them; `total` counts them all.
 */
export async function plannedPublishDiff<Row extends VersionedRow, Content>(
  db: Queryable,
  type: Pick<EditType<Row, Content, unknown, unknown>, 'publishDiff'>,
  planned: readonly PlannedItem<Row, Content>[],
): Promise<MassiveEditPublishDiff | undefined> {
  if (!type.publishDiff) return undefined;
  const diff: MassiveEditPublishDiff = { total: planned.length, modules: [], clusters: [] };
  for (const item of planned.slice(0, PUBLISH_DIFF_MAX_ITEMS)) {
    const one = await type.publishDiff(db, item);
    if ('module' in one) diff.modules.push(one.module);
    else diff.clusters.push(one.cluster);
  }
  return diff;
}

/** What Save & Publish did with each item it tried to publish, by item key string. */
export type PublishOutcomes = Map<string, { published: boolean; error: string | null }>;

const MAX_NAMED = 10;

function namesList(items: readonly MassiveEditItemOutcome[]): string {
  const names = items.slice(0, MAX_NAMED).map((i) => (i.monthId ? `${i.itemKey} (${formatMonthId(i.monthId)})` : i.itemKey));
  return items.length > MAX_NAMED ? `${names.join(', ')} and ${items.length - MAX_NAMED} more` : names.join(', ');
}

/** The Result popup's line for one row (no ';': the response separates rows with it). */
function rowMessage(row: number, items: readonly MassiveEditItemOutcome[], dryRun: boolean, itemType: 'module' | 'cluster'): string {
  const parts: string[] = [];
  const applied = items.filter((i) => i.outcome === 'applied');
  const unchanged = items.filter((i) => i.outcome === 'unchanged');
  const failed = items.filter((i) => i.outcome === 'failed');
  if (applied.length) parts.push(`${dryRun ? 'would change' : 'saved'} ${namesList(applied)}`);
  if (unchanged.length) parts.push(`nothing to change for ${namesList(unchanged)}`);
  const shown = failed.slice(0, MAX_NAMED).map((i) => `${i.monthId ? `${i.itemKey} (${formatMonthId(i.monthId)})` : i.itemKey}: ${i.reason}`);
  if (failed.length) parts.push(`not ${dryRun ? 'possible' : 'saved'} for ${shown.join(', ')}${failed.length > MAX_NAMED ? ` and ${failed.length - MAX_NAMED} more` : ''}`);
  const notPublished = items.filter((i) => i.published === false);
  if (notPublished.length)
    parts.push(`${dryRun ? 'would not be published' : 'not published'}: ${notPublished.slice(0, MAX_NAMED).map((i) => `${i.itemKey} (${formatMonthId(i.monthId)}): ${i.publishError}`).join(', ')}`);
  const published = items.filter((i) => i.published === true);
  if (published.length) parts.push(`${dryRun ? 'would be sent' : 'sent'} to the planning system: ${published.length} ${itemType}(s)`);
  return `Row ${row + 1}: ${parts.join('. ').replaceAll(';', ',')}`;
}

/** The per-row result, the counts, notAuthorizedItems and the ';'-separated response, from the step outcomes. */
export function assembleResult(input: {
  type: MassiveEditType;
  itemType: 'module' | 'cluster';
  dryRun: boolean;
  toPublish: boolean;
  rowCount: number;
  outcomes: readonly StepOutcome[];
  publish: PublishOutcomes | null;
  publishJobId: number | null;
}): { result: MassiveEditResult; response: string } {
  const { outcomes, publish, dryRun, toPublish } = input;
  const byRow = new Map<number, MassiveEditItemOutcome[]>();
  const notAuthorized = new Set<string>();
  let failedSteps = 0;
  for (const o of outcomes) {
    const published = publish?.get(itemKeyString(o));
    const item: MassiveEditItemOutcome = {
      itemKey: o.itemKey,
      label: o.label,
      monthId: o.monthId,
      outcome: o.outcome,
      changes: o.changes,
      reason: o.reason,
      published: o.outcome === 'failed' || !published ? null : published.published,
      publishError: published && o.outcome !== 'failed' ? published.error : null,
    };
    byRow.set(o.row, [...(byRow.get(o.row) ?? []), item]);
    if (o.outcome === 'failed') failedSteps++;
    if (o.notAuthorized) notAuthorized.add(o.itemKey);
  }
  const rows: MassiveEditRowResult[] = [];
  const counts: MassiveEditCounts = { saved: 0, partial: 0, unchanged: 0, failed: 0, published: 0, notPublished: 0, notPublishedReasons: [] };
  const reasons = new Map<string, number>();
  for (let row = 0; row < input.rowCount; row++) {
    const items = byRow.get(row) ?? [];
    const failed = items.filter((i) => i.outcome === 'failed').length;
    const changed = items.some((i) => i.outcome === 'applied');
    const outcome = failed === items.length ? 'failed' : failed > 0 ? (changed ? 'partial' : 'failed') : changed ? 'applied' : 'unchanged';
    const stopped = items.length > 0 && failed === items.length && new Set(items.map((i) => i.reason)).size === 1 ? items[0]!.reason : null;
    rows.push({ row: row + 1, outcome, message: rowMessage(row, items, dryRun, input.itemType), error: stopped, items });
    counts[outcome === 'applied' ? 'saved' : outcome]++;
    // Save & Publish: a row that saved something is published when all it saved was sent, else not.
    const savedItems = items.filter((i) => i.outcome === 'applied');
    if (!toPublish || !publish || savedItems.length === 0) continue;
    const notSent = savedItems.filter((i) => i.published !== true);
    if (notSent.length === 0) {
      counts.published++;
      continue;
    }
    counts.notPublished++;
    for (const why of new Set(notSent.map((i) => shortPublishReason(i.publishError ?? 'not sent')))) reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  counts.notPublishedReasons = [...reasons].map(([reason, n]) => ({ reason, rows: n }));
  const names = [...notAuthorized].sort();
  const notAuthorizedItems: NotAuthorizedItems = { edit: toPublish ? [] : names, submit: toPublish ? names : [] };
  const status = failedSteps === 0 ? 'DONE' : outcomes.every((o) => o.outcome === 'failed') ? 'FAILED' : 'PARTIAL';
  const result: MassiveEditResult = { type: input.type, dryRun, toPublish, status, notAuthorizedItems, counts, rows, publishJobId: input.publishJobId };
  const header = notAuthorizedText(input.itemType, notAuthorizedItems);
  const lines = [...(header ? [header] : []), ...rows.map((r) => r.message)];
  return { result, response: lines.join(';') };
}

/**
 * Save & Publish's preview: whether each item-month the rows change would be published (the job's publish
 * checks on the items as stored: the caller's submit right and the kind's blockers, e.g. a cluster's modules
 * in WIP; not the status, since a change reopens the item), by item key string. The job checks again.
 */
export async function plannedPublish<Row extends VersionedRow, Content>(
  db: Queryable,
  type: Pick<EditType<Row, Content, unknown, unknown>, 'publish' | 'change'>,
  planned: readonly PlannedItem<Row, Content>[],
  grants: JobCaller['grants'],
): Promise<PublishOutcomes | null> {
  if (!type.publish) return null;
  const rows = planned.map((p) => p.row);
  const refusals = await publishRefusals(db, type.publish, rows, grants, { checkStatus: false });
  const outcomes: PublishOutcomes = new Map();
  for (const row of rows) {
    const refusal = refusals.get(row.id);
    outcomes.set(itemKeyString(type.change.kind.keyOf(row)), { published: !refusal, error: refusal ?? null });
  }
  return outcomes;
}
