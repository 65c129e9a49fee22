import { MASSIVE_EDIT_LIMITS, type MassiveEditType } from '@bo/shared/massive-edit';
import { type DraftRow, emptyRow, normalizeMinValue, parseMonthToken } from './draft-rows';
import { COLUMNS, defaultValue, type FieldDef, FIELDS } from './fields';

/**
 * Pasting a block copied from a spreadsheet (docs/web-app.md "Massive Edit"): tab-separated columns,
 * one row per line; Excel quotes a cell that holds a line break, a tab or a quote ("a\nb", "" for a quote).
 */

const normalizeBreaks = (text: string) => text.replace(/\r\n?/g, '\n');

/** Excel ends a copied block with one line break: it is not an empty last row. */
const withoutFinalBreak = (text: string) => normalizeBreaks(text).replace(/\n$/, '');

/**
 * What the field takes as an ordinary paste: a single value, and in a list cell a single column too (a
 * column of UPCs copied from a spreadsheet is that cell's list, one value per line). Anything with a tab,
 * or several lines in another cell, is a block that fills rows and columns.
 */
export function isOrdinaryPaste(text: string, field: Pick<FieldDef, 'kind'>): boolean {
  const t = withoutFinalBreak(text);
  return !t.includes('\t') && (field.kind === 'list' || !t.includes('\n'));
}

/** The cells of a copied block, row by row. */
export function parseClipboardTable(text: string): string[][] {
  const input = withoutFinalBreak(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = input.length;
  if (n === 0) return [];
  for (;;) {
    let cell = '';
    if (input[i] === '"') {
      // A quoted cell, if the closing quote ends the cell; otherwise the quote is just text.
      let j = i + 1;
      let quoted = '';
      let closed = false;
      while (j < n) {
        if (input[j] === '"') {
          if (input[j + 1] === '"') {
            quoted += '"';
            j += 2;
            continue;
          }
          closed = true;
          j += 1;
          break;
        }
        quoted += input[j];
        j += 1;
      }
      if (closed && (j === n || input[j] === '\t' || input[j] === '\n')) {
        cell = quoted;
        i = j;
      } else {
        const end = nextSeparator(input, i);
        cell = input.slice(i, end);
        i = end;
      }
    } else {
      const end = nextSeparator(input, i);
      cell = input.slice(i, end);
      i = end;
    }
    row.push(cell);
    if (i >= n) {
      rows.push(row);
      return rows;
    }
    if (input[i] === '\n') {
      rows.push(row);
      row = [];
    }
    i += 1; // past the tab or the line break
    if (i >= n) {
      // A separator at the very end: one more empty cell.
      row.push('');
      rows.push(row);
      return rows;
    }
  }
}

function nextSeparator(text: string, from: number): number {
  for (let k = from; k < text.length; k += 1) if (text[k] === '\t' || text[k] === '\n') return k;
  return text.length;
}

/** A pasted list cell: values split on line breaks, commas and semicolons, one per line. */
export const splitPastedList = (cell: string) =>
  cell
    .split(/[\n,;]/)
    .map((v) => v.trim())
    .filter(Boolean);

/** A pasted cell as the field holds it. */
export function pastedValue(field: FieldDef, cell: string): string {
  const t = cell.trim();
  switch (field.kind) {
    case 'list':
      return splitPastedList(cell).join('\n');
    case 'text':
      return cell.replace(/\s*\n\s*/g, ' ').trim();
    case 'status':
      return t ? t.toUpperCase() : defaultValue('status');
    case 'months':
      // Months may also be separated by spaces; each is kept as its id (or as written, for the row to name).
      return cell
        .split(/[\n,;\s]+/)
        .filter(Boolean)
        .map((token) => parseMonthToken(token) ?? token)
        .join('\n');
    case 'number':
      return normalizeMinValue(t);
  }
}

/** A header cell as compared: upper case, single spaces, without a trailing '.', ':' or '*'. */
const headerText = (cell: string) =>
  cell
    .replace(/\u00a0/g, ' ')
    .trim()
    .toUpperCase()
    .replace(/\s+/g, ' ')
    .replace(/[.:*]+$/, '')
    .trim();

/** Words a spreadsheet writes in full where the table abbreviates, and plurals. */
const spelledOut = (text: string) => text.replace(/\bCLASS\b/g, 'CLASSIFICATION').replace(/\bCLASSIFICATIONS\b/g, 'CLASSIFICATION').replace(/\bSKU\b/g, 'SKUS');

/**
 * The headers a pasted spreadsheet may give the field: its label, the screen column holding it (the spec's
 * column names: module MIN VALUE is both the SKU list and the value), its request key, each spelled out
 * ('ADD CLIENT CLASSIFICATION') or in the plural ('MONTHS', 'MODULES').
 */
function headerNames(type: MassiveEditType, field: FieldDef): Set<string> {
  const names = [field.label, field.key, ...COLUMNS[type].filter((c) => c.fields.includes(field.key)).map((c) => c.header)].map(headerText);
  const all = new Set<string>();
  for (const name of names) {
    const full = spelledOut(name);
    for (const n of [name, full]) {
      all.add(n);
      all.add(n.endsWith('S') ? n.slice(0, -1) : `${n}S`);
    }
  }
  return all;
}

/** Whether the cell is a header of the field (a spreadsheet's title for that column). */
function isHeaderCell(type: MassiveEditType, field: FieldDef, cell: string): boolean {
  const text = headerText(cell);
  return !!text && (headerNames(type, field).has(text) || headerNames(type, field).has(spelledOut(text)));
}

/**
 * A first pasted row that only repeats column headers is not data (issue 34 item 7): each filled cell is a header
 * of the field it lands in, or of another field of the table (a copied header whose columns are shifted or
 * which names MIN VALUE once for both of its fields).
 */
export function isHeaderRow(type: MassiveEditType, cells: readonly string[], startField: number): boolean {
  const fields = FIELDS[type];
  const filled = cells.map((c, i) => [c, fields[startField + i]] as const).filter(([c]) => headerText(c));
  if (filled.length === 0) return false;
  return filled.every(([c, f]) => (f && isHeaderCell(type, f, c)) || fields.some((other) => isHeaderCell(type, other, c)));
}

/**
 * An ordinary paste into a list cell (one column) without its header: a column copied with its title
 * ('MODULE' above the names) keeps the names only.
 */
export function withoutHeaderLine(type: MassiveEditType, field: FieldDef, text: string): string {
  const lines = normalizeBreaks(text).split('\n');
  return lines.length > 1 && isHeaderCell(type, field, lines[0]!) ? lines.slice(1).join('\n') : text;
}

export interface PasteResult {
  rows: DraftRow[];
  /** Rows the paste added below the table. */
  added: number;
  /** Pasted rows left out: the table reached MASSIVE_EDIT_LIMITS.rows. */
  droppedRows: number;
  /** Whether some pasted columns fell beyond the table's last column. */
  droppedColumns: boolean;
}

/**
 * Fills the table from a pasted block, starting at row `startRow` and field `startField` and going right
 * and down in the table's paste order; rows are added below as needed (up to MASSIVE_EDIT_LIMITS.rows).
 * Pasted cells replace what the cells held, empty ones too, as in a spreadsheet.
 */
export function applyPaste(
  type: MassiveEditType,
  rows: readonly DraftRow[],
  startRow: number,
  startField: number,
  table: readonly (readonly string[])[],
  newId: () => string,
): PasteResult {
  const fields = FIELDS[type];
  const data = table.length > 0 && isHeaderRow(type, table[0]!, startField) ? table.slice(1) : table;
  const next = [...rows];
  let added = 0;
  let droppedRows = 0;
  let droppedColumns = false;
  data.forEach((cells, r) => {
    const index = startRow + r;
    if (index >= next.length) {
      if (next.length >= MASSIVE_EDIT_LIMITS.rows) {
        droppedRows += 1;
        return;
      }
      next.push(emptyRow(type, newId()));
      added += 1;
    }
    const row = next[index]!;
    const values = { ...row.values };
    cells.forEach((cell, c) => {
      const field = fields[startField + c];
      if (!field) {
        if (cell.trim()) droppedColumns = true;
        return;
      }
      values[field.key] = pastedValue(field, cell);
    });
    next[index] = { ...row, values };
  });
  return { rows: next, added, droppedRows, droppedColumns };
}
