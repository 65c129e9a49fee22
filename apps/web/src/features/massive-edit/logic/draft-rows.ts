import {
  type ClassificationMassiveEditRowInput,
  type ClusterMassiveEditRowInput,
  classificationRowErrors,
  clusterRowErrors,
  isBlankClassificationRow,
  isBlankClusterRow,
  isBlankModuleRow,
  MASSIVE_EDIT_LIMITS,
  MASSIVE_EDIT_TEXTS,
  type MassiveEditType,
  type ModuleMassiveEditRowInput,
  moduleRowErrors,
} from '@bo/shared/massive-edit';
import { formatMonthId, isMonthId, toMonthId } from '@bo/shared/months';
import { LIMITS } from '@bo/shared/validation';
import { defaultValue, FIELDS } from './fields';

/**
 * A row as the table holds it: every cell is text (a list cell one value per line, the month cell one
 * month id per line, the min value as typed), so that typing, pasting and the tab's storage treat all
 * cells alike. `toRequestRow` turns it into the request's row.
 */
export interface DraftRow {
  id: string;
  values: Record<string, string>;
  /** Greyed hints (the selected modules' current description). */
  placeholders?: Record<string, string>;
  /**
   * A prefilled row nobody has typed in or left yet (Massive Edit Selected): its rule errors are not shown in
   * red until the planner types in it, leaves it, or presses a save button (issue 34 item 7).
   */
  pristine?: true;
}

export type RequestRow = ModuleMassiveEditRowInput | ClusterMassiveEditRowInput | ClassificationMassiveEditRowInput;

/** The page's own texts for values a pasted spreadsheet can bring and the shared row rules do not check. */
export const ROW_TEXTS = {
  notAMonth: (token: string) => `'${token}' is not a month: write M03_2027 or 03/2027`,
  monthNotOpen: (monthId: string) => `${formatMonthId(monthId)} is not an open month`,
  badStatus: (value: string) => `Status '${value}' is not MH or EL`,
  badMinValue: (value: string) => `Min value '${value}' is not a number`,
  valueTooLong: (value: string) => `'${value.length > 20 ? `${value.slice(0, 20)}…` : value}' is longer than ${MASSIVE_EDIT_LIMITS.valueChars} characters`,
  tooManyValues: (label: string) => `${label}: at most ${MASSIVE_EDIT_LIMITS.listValues} values per cell`,
  tooManyMonths: `At most ${MASSIVE_EDIT_LIMITS.months} months per row`,
} as const;

export function emptyRow(type: MassiveEditType, id: string): DraftRow {
  return { id, values: Object.fromEntries(FIELDS[type].map((f) => [f.key, defaultValue(f.kind)])) };
}

/** A list cell's values: one per line, trimmed, empty lines dropped. */
export const splitLines = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/\r?\n|\r/)
    .map((v) => v.trim())
    .filter(Boolean);

/** M03_2027 or 03/2027 (also 3/2027, m03_2027) → M03_2027; null when it is not a month. */
export function parseMonthToken(token: string): string | null {
  const t = token.trim();
  const upper = t.toUpperCase();
  if (isMonthId(upper)) return upper;
  const m = /^(\d{1,2})\s*[/.-]\s*(\d{4})$/.exec(t);
  if (!m) return null;
  const month = Number(m[1]);
  return month >= 1 && month <= 12 ? toMonthId(Number(m[2]), month) : null;
}

/** The min value as typed: null when empty (it becomes 1), NaN when not a number; a decimal comma reads as a point. */
function parseMinValue(text: string | undefined): number | null {
  const t = (text ?? '').trim().replace(',', '.');
  if (!t) return null;
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * What the min value becomes when the planner leaves the field (part 2 §5): empty → 1, below 1 → 1,
 * otherwise the number with one decimal (step 0.1). Text that is not a number stays as it is (the row says why).
 */
export function normalizeMinValue(text: string): string {
  const n = parseMinValue(text);
  if (n === null || (!Number.isNaN(n) && n < 1)) return '1';
  if (Number.isNaN(n)) return text;
  return String(Math.round(n * 10) / 10);
}

const monthsOf = (text: string | undefined) => splitLines(text).map((t) => ({ token: t, monthId: parseMonthToken(t) }));

/** The request's row for a table row (values the rules will refuse are left for the row's errors to name). */
export function toRequestRow(type: MassiveEditType, row: DraftRow): RequestRow {
  const v = row.values;
  const text = (key: string) => (v[key] ?? '').trim() || null;
  const months = (key: string) => [...new Set(monthsOf(v[key]).flatMap((m) => (m.monthId ? [m.monthId] : [])))];
  if (type === 'module') {
    const minList = splitLines(v.upcMinValueSkuList);
    const min = parseMinValue(v.upcMinValueSkuValue);
    return {
      moduleLabels: splitLines(v.moduleLabels),
      moduleDescription: text('moduleDescription'),
      upcToAddList: splitLines(v.upcToAddList),
      upcToRemoveList: splitLines(v.upcToRemoveList),
      upcStatus: (v.upcStatus ?? '').trim().toUpperCase() === 'EL' ? 'EL' : 'MH',
      monthIdList: months('monthIdList'),
      upcMinValueSkuList: minList,
      // Without SKUs the number is disabled and means nothing: the default goes.
      upcMinValueSkuValue: minList.length && min !== null && !Number.isNaN(min) ? Math.max(1, Math.round(min * 10) / 10) : 1,
    } satisfies ModuleMassiveEditRowInput;
  }
  if (type === 'cluster') {
    return {
      clusterLabels: splitLines(v.clusterLabels),
      clusterDescription: text('clusterDescription'),
      moduleLabelsToAdd: splitLines(v.moduleLabelsToAdd),
      moduleLabelsToRemove: splitLines(v.moduleLabelsToRemove),
      liasToAdd: splitLines(v.liasToAdd),
      liasToRemove: splitLines(v.liasToRemove),
      months: months('months'),
    } satisfies ClusterMassiveEditRowInput;
  }
  return {
    clusterLabels: splitLines(v.clusterLabels),
    classificationsToAdd: splitLines(v.classificationsToAdd),
    classificationsToRemove: splitLines(v.classificationsToRemove),
  } satisfies ClassificationMassiveEditRowInput;
}

export interface RowAnalysis {
  /** Untouched (every cell at its default): no error shown, not sent. */
  blank: boolean;
  /** The rules the row breaks, shown under it; [] when valid (and always for a blank row). */
  errors: string[];
  request: RequestRow;
}

/** The checks the shared row rules leave to the page: values a paste can bring (months, status, numbers, lengths). */
function cellErrors(type: MassiveEditType, row: DraftRow, openMonths: ReadonlySet<string> | null): string[] {
  const errors: string[] = [];
  for (const field of FIELDS[type]) {
    const raw = row.values[field.key] ?? '';
    if (field.kind === 'list') {
      const values = splitLines(raw);
      const long = values.find((x) => x.length > MASSIVE_EDIT_LIMITS.valueChars);
      if (long) errors.push(ROW_TEXTS.valueTooLong(long));
      if (values.length > MASSIVE_EDIT_LIMITS.listValues) errors.push(ROW_TEXTS.tooManyValues(field.label));
    } else if (field.kind === 'months') {
      const months = monthsOf(raw);
      for (const m of months) {
        if (!m.monthId) errors.push(ROW_TEXTS.notAMonth(m.token));
        else if (openMonths && !openMonths.has(m.monthId)) errors.push(ROW_TEXTS.monthNotOpen(m.monthId));
      }
      if (months.length > MASSIVE_EDIT_LIMITS.months) errors.push(ROW_TEXTS.tooManyMonths);
    } else if (field.kind === 'status') {
      const s = raw.trim().toUpperCase();
      if (s && s !== 'MH' && s !== 'EL') errors.push(ROW_TEXTS.badStatus(raw.trim()));
    } else if (field.kind === 'number') {
      // Only when it counts: the number is disabled (and ignored) without a min-value SKU.
      if (splitLines(row.values.upcMinValueSkuList).length === 0) continue;
      if (Number.isNaN(parseMinValue(raw))) errors.push(ROW_TEXTS.badMinValue(raw.trim()));
      else if (raw.trim().length > LIMITS.minValueChars) errors.push(MASSIVE_EDIT_TEXTS.minValueTooLong);
    }
  }
  return errors;
}

function isBlankText(type: MassiveEditType, row: DraftRow): boolean {
  // A cell with text the request would drop (an unknown month, a bad status) still counts as filled in.
  return FIELDS[type].every((f) => {
    const raw = (row.values[f.key] ?? '').trim();
    if (f.kind === 'status') return raw === '' || raw.toUpperCase() === 'MH';
    if (f.kind === 'number') return splitLines(row.values.upcMinValueSkuList).length === 0 || raw === '' || parseMinValue(raw) === 1;
    return raw === '';
  });
}

/** The shared rules of each page's request row (the server applies the same): is it blank, what it breaks. */
const ROW_RULES: Record<MassiveEditType, { isBlank: (request: RequestRow) => boolean; errors: (request: RequestRow) => string[] }> = {
  module: { isBlank: (r) => isBlankModuleRow(r as ModuleMassiveEditRowInput), errors: (r) => moduleRowErrors(r as ModuleMassiveEditRowInput) },
  cluster: { isBlank: (r) => isBlankClusterRow(r as ClusterMassiveEditRowInput), errors: (r) => clusterRowErrors(r as ClusterMassiveEditRowInput) },
  classification: {
    isBlank: (r) => isBlankClassificationRow(r as ClassificationMassiveEditRowInput),
    errors: (r) => classificationRowErrors(r as ClassificationMassiveEditRowInput),
  },
};

/** Whether the row is blank, the rules it breaks (shared rules first, then the page's cell checks) and its request row. */
export function analyseRow(type: MassiveEditType, row: DraftRow, openMonths: ReadonlySet<string> | null = null): RowAnalysis {
  const request = toRequestRow(type, row);
  const rules = ROW_RULES[type];
  if (rules.isBlank(request) && isBlankText(type, row)) return { blank: true, errors: [], request };
  return { blank: false, errors: [...rules.errors(request), ...cellErrors(type, row, openMonths)], request };
}

/** What the buttons and the request need of the whole table. */
export interface TableSummary {
  /** Non-blank rows, in table order, with their 1-based table row number. */
  sent: { rowId: string; rowNumber: number; request: RequestRow }[];
  invalidRows: number;
  /** Invalid rows not shown in red yet (prefilled, untouched). */
  hiddenInvalidRows: number;
  /** Save All (and Preview) enabled: at least one non-blank row and no non-blank row invalid. */
  canSave: boolean;
}

export function summarise(rows: readonly DraftRow[], analysis: (row: DraftRow) => RowAnalysis): TableSummary {
  const sent: TableSummary['sent'] = [];
  let invalidRows = 0;
  let hiddenInvalidRows = 0;
  rows.forEach((row, i) => {
    const a = analysis(row);
    if (a.blank) return;
    if (a.errors.length) {
      invalidRows += 1;
      if (row.pristine) hiddenInvalidRows += 1;
    }
    sent.push({ rowId: row.id, rowNumber: i + 1, request: a.request });
  });
  return { sent, invalidRows, hiddenInvalidRows, canSave: sent.length > 0 && invalidRows === 0 };
}
