import { type MassiveEditResult, type MassiveEditRowResult, notAuthorizedText } from '@bo/shared/massive-edit';
import type { MassiveEditType } from '@bo/shared/massive-edit';

export type Outcome = MassiveEditRowResult['outcome'];

export const OUTCOME_COLORS: Record<Outcome, string> = { applied: 'teal', unchanged: 'gray', partial: 'orange', failed: 'red' };
/** How the preview names a row's outcome: nothing has happened yet. */
export const PREVIEW_OUTCOME_LABELS: Record<Outcome, string> = { applied: 'Would change', unchanged: 'Nothing to change', partial: 'Partly possible', failed: 'Would fail' };

interface ResultLine {
  text: string;
  color: string;
}

/** Whose names notAuthorizedItems lists: modules for the module table, clusters for the other two. */
export const itemKind = (type: MassiveEditType): 'module' | 'cluster' => (type === 'module' ? 'module' : 'cluster');

/**
 * The server numbers the rows it was sent ('Row 2: …'); blank rows are not sent, so the page renames a
 * line's row by its number in the table (`rowNumbers[i]` = table row of the i-th sent row).
 */
export function renumberRow(text: string, rowNumbers: readonly number[]): string {
  return text.replace(/^Row (\d+):/, (whole, n: string) => {
    const number = rowNumbers[Number(n) - 1];
    return number === undefined ? whole : `Row ${number}:`;
  });
}

/** Whether a Save & Publish row saved something that did not go to the planning system. */
const savedNotPublished = (result: MassiveEditResult, row: MassiveEditResult['rows'][number]) =>
  result.toPublish && row.items.some((i) => i.outcome === 'applied' && i.published !== true);

/**
 * The Result popup (part 2 §4): one line per row, coloured by its outcome (a Save & Publish row saved but not
 * published is orange, not green), then the Edit error / Submit error lines.
 */
export function resultLines(result: MassiveEditResult, rowNumbers: readonly number[] = []): ResultLine[] {
  const lines: ResultLine[] = result.rows.map((row) => ({
    text: renumberRow(row.message, rowNumbers),
    color: row.outcome === 'applied' && savedNotPublished(result, row) ? 'orange' : OUTCOME_COLORS[row.outcome],
  }));
  const refused = notAuthorizedText(itemKind(result.type), result.notAuthorizedItems);
  for (const text of refused.split(';').filter(Boolean)) lines.push({ text, color: 'red' });
  return lines;
}

/**
 * A 400's field errors (`body.massiveEditList.3…`: the index in the sent rows) as messages per table
 * row id, so that each row shows what the server refused on it.
 */
export function fieldErrorsByRow(fields: ReadonlyArray<{ path: string; message: string }> | undefined, sentRowIds: readonly string[]): Map<string, string[]> {
  const byRow = new Map<string, string[]>();
  for (const field of fields ?? []) {
    const m = /(?:massiveEditList|rowsClusterMassiveEdit|rowsClusterClassificationMassiveEdit)\.(\d+)(?:\.|$)/.exec(field.path);
    const id = m ? sentRowIds[Number(m[1])] : undefined;
    if (!id) continue;
    byRow.set(id, [...(byRow.get(id) ?? []), field.message]);
  }
  return byRow;
}

interface CountBadge {
  key: 'saved' | 'partial' | 'unchanged' | 'published' | 'notPublished' | 'failed';
  text: string;
  color: string;
}

const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;

/**
 * The Result popup's badges (issue 34 item 2), honest colours: green only for what was done as asked — on Save &
 * Publish, saving without publishing is not green (orange), and nothing is green when nothing was published;
 * a zero is grey.
 */
export function countBadges(result: MassiveEditResult): CountBadge[] {
  const c = result.counts;
  const publishing = result.toPublish;
  const badges: CountBadge[] = [{ key: 'saved', text: `${rows(c.saved)} saved`, color: c.saved === 0 ? 'gray' : publishing && c.published === 0 ? 'orange' : 'teal' }];
  if (c.partial) badges.push({ key: 'partial', text: `${rows(c.partial)} partly saved`, color: 'orange' });
  badges.push({ key: 'unchanged', text: `${rows(c.unchanged)} unchanged`, color: 'gray' });
  if (publishing) {
    badges.push({ key: 'published', text: `${rows(c.published)} published`, color: c.published ? 'teal' : 'gray' });
    badges.push({ key: 'notPublished', text: `${rows(c.notPublished)} not published`, color: c.notPublished ? 'orange' : 'gray' });
  }
  badges.push({ key: 'failed', text: `${rows(c.failed)} failed`, color: c.failed ? 'red' : 'gray' });
  return badges;
}
