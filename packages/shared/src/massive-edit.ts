/**
 * Massive Edit (part 2 §2 "Massive Edit page", §3 "Massive edit rows", §4 "Massive edit flow", §5 row
 * rules, §6 notAuthorizedItems, §8 errors): the row shapes, the row rules with their texts, the request
 * bodies and the answers, written once for the page and the server (docs/MASSIVE-EDIT.md).
 */
import { z } from 'zod';
import { CLUSTER_TEXTS } from './clusters.js';
import { clusterPublishDiffSchema, modulePublishDiffSchema } from './item-versions.js';
import { formatMonthId } from './months.js';
import { numeric } from './numbers.js';
import { LIMITS } from './validation.js';

export const MASSIVE_EDIT_LIMITS = {
  /** Rows of one request (a pasted spreadsheet of a thousand rows fits). */
  rows: 2000,
  /** Values of one list cell (modules, SKUs, LIAs, classifications). */
  listValues: 500,
  /** Months of one row. */
  months: 36,
  /** One value of a list cell: a module name or label, a UPC, a LIA code, a classification label. */
  valueChars: 50,
} as const;

export type MassiveEditType = 'module' | 'cluster' | 'classification';

export const MASSIVE_EDIT_TEXTS = {
  heading: 'Massive Edit',
  chooseType: 'Choose assortment type',
  saveAll: 'Save All',
  savePublishAll: 'Save & Publish All',
  switchTitle: 'Attention!',
  switchWarning: 'Warning: if you have not saved and switch between modes, you will lose any changes you have made.',
  switchQuestion: 'Do you want to confirm the switch?',
  resultTitle: 'Result',
  errorTitle: 'Error',
  // Row rules (part 2 §5), shown on the row that breaks them and answered by the server in 400 fields.
  moduleRequired: 'Insert at least one module',
  clusterRequired: 'Insert at least one cluster',
  monthRequiredModule: 'Choose a month: add, remove, status and min value apply to months',
  monthRequiredCluster: 'Choose a month: adding or removing modules and LIAs applies to months',
  nothingToChange: 'Nothing to change: fill in at least one column',
  classificationRequired: 'Add or remove at least one client classification',
  bothAddedAndRemoved: (what: string, values: readonly string[]) => `${what} ${values.join(', ')} cannot be both added and removed`,
  minValueOfRemoved: (upcs: readonly string[]) => `SKU ${upcs.join(', ')} is removed: it cannot get a min value`,
  descriptionTooLong: `The description can have at most ${LIMITS.description} characters`,
  minValueTooLong: `The min value can have at most ${LIMITS.minValueChars} characters`,
  // notAuthorizedItems (part 2 §6)
  editError: (kind: 'module' | 'cluster', names: readonly string[]) => `Edit error: cannot edit ${kind}(s) ${names.join(', ')}`,
  submitError: (kind: 'module' | 'cluster', names: readonly string[]) => `Submit error: cannot submit ${kind}(s) ${names.join(', ')}`,
} as const;

const value = z.string().trim().min(1, 'Empty value').max(MASSIVE_EDIT_LIMITS.valueChars, `A value can have at most ${MASSIVE_EDIT_LIMITS.valueChars} characters`);
/** A list cell: one value per line in the page; duplicates are kept once. */
const list = z
  .array(value)
  .max(MASSIVE_EDIT_LIMITS.listValues, `At most ${MASSIVE_EDIT_LIMITS.listValues} values per cell`)
  .default([])
  .transform((values) => [...new Set(values)]);
const monthList = z
  .array(z.string().regex(/^M(0[1-9]|1[0-2])_\d{4}$/, 'Month ids look like M03_2027'))
  .max(MASSIVE_EDIT_LIMITS.months)
  .default([])
  .transform((values) => [...new Set(values)]);
/** An empty description changes nothing (the column was left blank). */
const description = z.string().max(LIMITS.description, MASSIVE_EDIT_TEXTS.descriptionTooLong).nullish();

const upcStatusSchema = z.enum(['MH', 'EL']);

/** A module row (part 2 §3): MODULE, DESCRIPTION, ADD, REMOVE, STATUS, MONTH, MIN VALUE. */
const moduleMassiveEditRowSchema = z.object({
  /** Module names or labels (a label names the module of that label in each month). */
  moduleLabels: list,
  moduleDescription: description,
  upcToAddList: list,
  upcToRemoveList: list,
  /** The class the added SKUs take (an added SKU already in the module moves to it). */
  upcStatus: upcStatusSchema.default('MH'),
  monthIdList: monthList,
  upcMinValueSkuList: list,
  /** numeric(9,1): step 0.1, at least 1. */
  upcMinValueSkuValue: numeric(9, 1, { min: 1 }).default(1),
});
export type ModuleMassiveEditRow = z.infer<typeof moduleMassiveEditRowSchema>;
export type ModuleMassiveEditRowInput = z.input<typeof moduleMassiveEditRowSchema>;

/** A cluster row: CLUSTER, DESCRIPTION, ADD MODULE, REMOVE MODULE, ADD LIA, REMOVE LIA, MONTH. */
const clusterMassiveEditRowSchema = z.object({
  /** Cluster ids or labels. */
  clusterLabels: list,
  clusterDescription: description,
  moduleLabelsToAdd: list,
  moduleLabelsToRemove: list,
  liasToAdd: list,
  liasToRemove: list,
  months: monthList,
});
export type ClusterMassiveEditRow = z.infer<typeof clusterMassiveEditRowSchema>;
export type ClusterMassiveEditRowInput = z.input<typeof clusterMassiveEditRowSchema>;

/** A classification row: CLUSTER, ADD CLIENT CLASS., REMOVE CLIENT CLASS. (every open month of the cluster). */
const classificationMassiveEditRowSchema = z.object({
  clusterLabels: list,
  classificationsToAdd: list,
  classificationsToRemove: list,
});
export type ClassificationMassiveEditRow = z.infer<typeof classificationMassiveEditRowSchema>;
export type ClassificationMassiveEditRowInput = z.input<typeof classificationMassiveEditRowSchema>;

const both = (a: readonly string[], b: readonly string[]) => {
  const lower = new Set(b.map((x) => x.toLowerCase()));
  return a.filter((x) => lower.has(x.toLowerCase()));
};

/** A row whose every cell is blank (the page skips it; the server refuses it). */
export function isBlankModuleRow(row: ModuleMassiveEditRowInput): boolean {
  return (
    !row.moduleLabels?.length &&
    !row.moduleDescription &&
    !row.upcToAddList?.length &&
    !row.upcToRemoveList?.length &&
    !row.monthIdList?.length &&
    !row.upcMinValueSkuList?.length &&
    (row.upcStatus ?? 'MH') === 'MH' &&
    (row.upcMinValueSkuValue ?? 1) === 1
  );
}

/** The rules a module row breaks (part 2 §5), in the order the page shows them; [] when valid. */
export function moduleRowErrors(row: ModuleMassiveEditRowInput): string[] {
  const errors: string[] = [];
  const add = row.upcToAddList ?? [];
  const remove = row.upcToRemoveList ?? [];
  const minList = row.upcMinValueSkuList ?? [];
  if (!row.moduleLabels?.length) errors.push(MASSIVE_EDIT_TEXTS.moduleRequired);
  const monthBound = add.length > 0 || remove.length > 0 || minList.length > 0 || (row.upcStatus ?? 'MH') !== 'MH' || (row.upcMinValueSkuValue ?? 1) !== 1;
  if (monthBound && !row.monthIdList?.length) errors.push(MASSIVE_EDIT_TEXTS.monthRequiredModule);
  if (!row.moduleDescription && add.length === 0 && remove.length === 0 && minList.length === 0) errors.push(MASSIVE_EDIT_TEXTS.nothingToChange);
  const twice = both(add, remove);
  if (twice.length) errors.push(MASSIVE_EDIT_TEXTS.bothAddedAndRemoved('SKU', twice));
  const removedMin = both(minList, remove);
  if (removedMin.length) errors.push(MASSIVE_EDIT_TEXTS.minValueOfRemoved(removedMin));
  if ((row.moduleDescription ?? '').length > LIMITS.description) errors.push(MASSIVE_EDIT_TEXTS.descriptionTooLong);
  return errors;
}

export function isBlankClusterRow(row: ClusterMassiveEditRowInput): boolean {
  return !row.clusterLabels?.length && !row.clusterDescription && !row.moduleLabelsToAdd?.length && !row.moduleLabelsToRemove?.length && !row.liasToAdd?.length && !row.liasToRemove?.length && !row.months?.length;
}

/** The rules a cluster row breaks: cluster required; a month when modules or LIAs are added or removed. */
export function clusterRowErrors(row: ClusterMassiveEditRowInput): string[] {
  const errors: string[] = [];
  const addM = row.moduleLabelsToAdd ?? [];
  const removeM = row.moduleLabelsToRemove ?? [];
  const addL = row.liasToAdd ?? [];
  const removeL = row.liasToRemove ?? [];
  if (!row.clusterLabels?.length) errors.push(MASSIVE_EDIT_TEXTS.clusterRequired);
  const monthBound = addM.length + removeM.length + addL.length + removeL.length > 0;
  if (monthBound && !row.months?.length) errors.push(MASSIVE_EDIT_TEXTS.monthRequiredCluster);
  if (!row.clusterDescription && !monthBound) errors.push(MASSIVE_EDIT_TEXTS.nothingToChange);
  const twiceM = both(addM, removeM);
  if (twiceM.length) errors.push(MASSIVE_EDIT_TEXTS.bothAddedAndRemoved('Module', twiceM));
  const twiceL = both(addL, removeL);
  if (twiceL.length) errors.push(MASSIVE_EDIT_TEXTS.bothAddedAndRemoved('LIA', twiceL));
  if ((row.clusterDescription ?? '').length > LIMITS.description) errors.push(MASSIVE_EDIT_TEXTS.descriptionTooLong);
  return errors;
}

export function isBlankClassificationRow(row: ClassificationMassiveEditRowInput): boolean {
  return !row.clusterLabels?.length && !row.classificationsToAdd?.length && !row.classificationsToRemove?.length;
}

/** The rules a classification row breaks: cluster required and at least one classification to add or remove. */
export function classificationRowErrors(row: ClassificationMassiveEditRowInput): string[] {
  const errors: string[] = [];
  const add = row.classificationsToAdd ?? [];
  const remove = row.classificationsToRemove ?? [];
  if (!row.clusterLabels?.length) errors.push(MASSIVE_EDIT_TEXTS.clusterRequired);
  if (add.length === 0 && remove.length === 0) errors.push(MASSIVE_EDIT_TEXTS.classificationRequired);
  const twice = both(add, remove);
  if (twice.length) errors.push(MASSIVE_EDIT_TEXTS.bothAddedAndRemoved('Client classification', twice));
  return errors;
}

const rowsOf = <T extends z.ZodType>(row: T) =>
  z.array(row).min(1, 'Add at least one row').max(MASSIVE_EDIT_LIMITS.rows, `At most ${MASSIVE_EDIT_LIMITS.rows} rows at once`);

/** POST /api/module/massiveEdit/ (and /api/module/massiveEdit/selected, admins). */
export const moduleMassiveEditRequestSchema = z.object({
  massiveEditList: rowsOf(moduleMassiveEditRowSchema),
  toPublish: z.boolean().default(false),
  /** Preview: the same outcome, computed and answered, nothing written (also `?dryRun=true`). */
  dryRun: z.boolean().optional(),
});

/** POST /api/cluster/massiveEdit/ */
export const clusterMassiveEditRequestSchema = z.object({
  rowsClusterMassiveEdit: rowsOf(clusterMassiveEditRowSchema),
  toPublish: z.boolean().default(false),
  dryRun: z.boolean().optional(),
});

/** POST /api/cluster/massiveEdit/classification (no publish: classifications are not sent to the planning system). */
export const classificationMassiveEditRequestSchema = z.object({
  rowsClusterClassificationMassiveEdit: rowsOf(classificationMassiveEditRowSchema),
  dryRun: z.boolean().optional(),
});

export const massiveEditQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

const notAuthorizedItemsSchema = z.object({
  /** Names of the items the caller may not edit (Save) … */
  edit: z.array(z.string()),
  /** … and may not submit (Save & Publish). */
  submit: z.array(z.string()),
});
export type NotAuthorizedItems = z.infer<typeof notAuthorizedItemsSchema>;

/** What happened (or, in a preview, would happen) to one item in one month. */
const massiveEditItemOutcomeSchema = z.object({
  /** moduleName or clusterId. */
  itemKey: z.string(),
  /** Module or cluster label (the itemKey when unknown). */
  label: z.string(),
  monthId: z.string(),
  outcome: z.enum(['applied', 'unchanged', 'failed']),
  /** One line per change, for people: 'Added SKU 8050000000017 as MH', 'SKU … moved from EL to MH' … */
  changes: z.array(z.string()),
  /** Why it failed (outcome failed). */
  reason: z.string().nullable(),
  /** Save & Publish: whether the item went to the planning system, and why not. */
  published: z.boolean().nullable(),
  publishError: z.string().nullable(),
});
export type MassiveEditItemOutcome = z.infer<typeof massiveEditItemOutcomeSchema>;

const massiveEditRowResultSchema = z.object({
  /** 1-based, as the page numbers its rows from the top. */
  row: z.number().int(),
  outcome: z.enum(['applied', 'unchanged', 'partial', 'failed']),
  /** The Result popup's line for the row. */
  message: z.string(),
  /** A reason that stopped the whole row (an unknown SKU, no such module …). */
  error: z.string().nullable(),
  items: z.array(massiveEditItemOutcomeSchema),
});
export type MassiveEditRowResult = z.infer<typeof massiveEditRowResultSchema>;

/**
 * Save & Publish's preview (dryRun with toPublish): what publishing each item-month the rows change would change,
 * against its last published version and the previous month's (docs/versions.md), computed from the content
 * the item will have once the rows apply. Only changed item-months are published, so only they are listed.
 */
const massiveEditPublishDiffSchema = z.object({
  /** The item-months the rows would change and so publish. */
  total: z.number().int(),
  /** The first PUBLISH_DIFF_MAX_ITEMS of them in row order: module rows fill `modules`, cluster rows `clusters`. */
  modules: z.array(modulePublishDiffSchema.extend({ label: z.string() })),
  clusters: z.array(clusterPublishDiffSchema.extend({ label: z.string() })),
});
export type MassiveEditPublishDiff = z.infer<typeof massiveEditPublishDiffSchema>;

/**
 * What happened to the rows (issue 34): each sent row counted once by its outcome (saved, partly saved,
 * unchanged, failed) and, on Save & Publish, each row that saved something counted once by whether all it
 * saved went to the planning system (published: its submission started) or not (notPublished, with the
 * reasons). In a preview the same counts say what would happen.
 */
const massiveEditCountsSchema = z.object({
  /** Rows whose every item-month was saved. */
  saved: z.number().int(),
  /** Rows with some item-months saved and some failed. */
  partial: z.number().int(),
  /** Rows with nothing to change. */
  unchanged: z.number().int(),
  /** Rows with nothing saved and something failed. */
  failed: z.number().int(),
  /** Save & Publish: rows whose every saved item-month was sent to the planning system. */
  published: z.number().int(),
  /** Save & Publish: rows with a saved item-month that was not sent. */
  notPublished: z.number().int(),
  /** Why they were not sent, short ('modules in WIP'), each once, with the rows it concerns. */
  notPublishedReasons: z.array(z.object({ reason: z.string(), rows: z.number().int() })),
});
export type MassiveEditCounts = z.infer<typeof massiveEditCountsSchema>;

/** The short form of a reason an item was not published, for the counts' summary line. */
export function shortPublishReason(message: string): string {
  if (message === CLUSTER_TEXTS.modulesInWip) return 'modules in WIP';
  if (/^Only (modules|clusters) in WIP can be published/.test(message)) return 'not in WIP';
  if (/right to publish/.test(message)) return 'no right to publish';
  return message;
}

/**
 * The Result popup's summary line: "Saved 2 · Published 0 · Not published 2 (modules in WIP)"; a preview
 * says what would happen ("Would save 2 · …"). Zero counts other than Saved and Failed are left out, and the
 * publish counts are there only on Save & Publish.
 */
export function countsSummary(counts: MassiveEditCounts, { dryRun, toPublish }: { dryRun: boolean; toPublish: boolean }): string {
  const parts: string[] = [`${dryRun ? 'Would save' : 'Saved'} ${counts.saved}`];
  if (counts.partial) parts.push(`${dryRun ? 'Would partly save' : 'Partly saved'} ${counts.partial}`);
  if (counts.unchanged) parts.push(`Unchanged ${counts.unchanged}`);
  if (toPublish) {
    parts.push(`${dryRun ? 'Would publish' : 'Published'} ${counts.published}`);
    if (counts.notPublished) {
      const why = counts.notPublishedReasons.map((r) => r.reason).join(', ');
      parts.push(`${dryRun ? 'Would not publish' : 'Not published'} ${counts.notPublished}${why ? ` (${why})` : ''}`);
    }
  }
  parts.push(`${dryRun ? 'Would fail' : 'Failed'} ${counts.failed}`);
  return parts.join(' · ');
}

/** The job's result (GET /api/jobs/:id `result`) and the preview's answer: the same shape. */
export const massiveEditResultSchema = z.object({
  type: z.enum(['module', 'cluster', 'classification']),
  dryRun: z.boolean(),
  toPublish: z.boolean(),
  /** DONE: every row applied (or had nothing to change); PARTIAL: some did not; FAILED: none did (publishing aside: see counts). */
  status: z.enum(['DONE', 'PARTIAL', 'FAILED']),
  notAuthorizedItems: notAuthorizedItemsSchema,
  counts: massiveEditCountsSchema,
  rows: z.array(massiveEditRowResultSchema),
  publishJobId: z.number().nullable(),
  /** Only in a preview with toPublish (module and cluster rows). */
  publishDiff: massiveEditPublishDiffSchema.optional(),
});
export type MassiveEditResult = z.infer<typeof massiveEditResultSchema>;

/** The answer of a massive edit call that was not a preview: the job to poll (GET /api/jobs/:id). */
const massiveEditStartedSchema = z.object({
  jobId: z.number(),
  status: z.literal('QUEUED'),
  notAuthorizedItems: notAuthorizedItemsSchema,
  /** The Edit error / Submit error lines, ';'-separated ('' when every item may be changed). */
  response: z.string(),
});

/**
 * The answer of a massive edit call (not a preview) whose every item the caller may not change: no job is
 * queued and nothing is written; the answer is what the job would have finished with (progress 100, the
 * per-row `result`, its ';'-separated `response` with the Edit error / Submit error line first).
 */
const massiveEditRefusedSchema = z.object({
  jobId: z.null(),
  status: z.literal('REFUSED'),
  progress: z.literal(100),
  notAuthorizedItems: notAuthorizedItemsSchema,
  response: z.string(),
  result: massiveEditResultSchema,
});

/** What a massive edit call that is not a preview answers: the job to poll, or the refusal of every item. */
export const massiveEditAnswerSchema = z.discriminatedUnion('status', [massiveEditStartedSchema, massiveEditRefusedSchema]);
export type MassiveEditAnswer = z.infer<typeof massiveEditAnswerSchema>;

/** The Edit error / Submit error lines of notAuthorizedItems, ';'-separated. */
export function notAuthorizedText(kind: 'module' | 'cluster', items: NotAuthorizedItems): string {
  const lines: string[] = [];
  if (items.edit.length) lines.push(MASSIVE_EDIT_TEXTS.editError(kind, items.edit));
  if (items.submit.length) lines.push(MASSIVE_EDIT_TEXTS.submitError(kind, items.submit));
  return lines.join(';');
}

/** "AUR_SUN_AVI_01 (03/2027)": how results name an item in a month. */
export const itemInMonth = (itemKey: string, monthId: string) => `${itemKey} (${formatMonthId(monthId)})`;
