/**
 * Code columns that went through a spreadsheet program (docs/SPREADSHEET-FILES.md). Excel and LibreOffice read
 * a CSV cell of digits as a number: `003` becomes 3, and a long code may be written back in scientific
 * notation (`8.00E+11`). A code that lost its zeros would be stored as another code, so each row's codes are
 * looked at here, once, by both staging ways (stage-file.ts repairs and reports; fast-stage.ts leaves any row
 * with a finding to the careful way), before parseCell:
 *
 * - **repaired** only where the row itself proves the right value: a colour or size of digits only whose
 *   zero-padded form is what the row's skuCode holds after the model (`0AU4012__00352` with model `AU4012`,
 *   colour `3`, size `52` → colour `003`), or what its materialCode ends with after the model;
 * - **refused** where the row proves a loss but not the value: a UPC of 9–11 digits with a valid GS1 check
 *   digit (a GTIN whose leading zeros were dropped: no GTIN has 9–11 digits), any code in scientific notation;
 * - left as it is otherwise (nothing proves a loss: `S1`, `52`, a colour whose codes agree with it).
 */
/** A cell to change before it is parsed (`proof`: the column that proved it), or a refusal of the cell. */
export type CodeFinding = { column: string; repair: string; proof: string } | { column: string; reason: string };

/** The cell of a column of the row, by header name (null: empty or not in the file). */
export type RowCells = (column: string) => string | null;

/** The columns each kind of release file holds codes in (for readers that need them: fast-stage.ts); other files have none. */
export const CODE_COLUMNS: Readonly<Partial<Record<string, readonly string[]>>> = {
  registry: ['upc', 'model', 'color', 'size', 'materialCode', 'skuCode'],
  segment: ['storeJda', 'codiceStoreSap'],
  module: ['upc'],
  cluster: ['kind', 'value'],
};

const DIGITS = /^\d+$/;
/** How Excel (`8.00E+11`) and LibreOffice (`8E+11`) write a number too long for the column. */
const SCIENTIFIC = /^\d+(?:[.,]\d+)?E\+\d+$/i;

const quoted = (text: string) => `'${text}'`;

/** The GS1 check digit is right: weights 3, 1, 3… from the right, the check digit last (GTIN-8/12/13/14). */
export function validGtin(digits: string): boolean {
  if (!DIGITS.test(digits) || digits.length < 2) return false;
  let sum = 0;
  for (let i = digits.length - 2, w = 3; i >= 0; i--, w = 4 - w) sum += Number(digits[i]) * w;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** Why a code that a spreadsheet program rounded (scientific notation) is refused, or null. */
export function scientificProblem(code: string): string | null {
  return SCIENTIFIC.test(code)
    ? `${quoted(code)} is a number in scientific notation: a spreadsheet program rounded the code; format the column as text`
    : null;
}

/** Why a UPC is refused as having lost its leading zeros, or null: 9–11 digits with a valid check digit. */
export function upcProblem(upc: string): string | null {
  const scientific = scientificProblem(upc);
  if (scientific) return scientific;
  if (!DIGITS.test(upc) || upc.length < 9 || upc.length > 11 || !validGtin(upc)) return null;
  return `${quoted(upc)} has ${upc.length} digits: a spreadsheet program may have dropped its leading zeros (${upc.padStart(12, '0')} is a valid UPC-A); format the column as text`;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A code part as a pattern: digits may have lost leading zeros (captured), anything else is as it is. */
const part = (code: string) => (DIGITS.test(code) ? `(0*)${escape(code)}` : `()${escape(code)}`);
/** What may stand between the model and the colour, or between colour and size, in a material or SKU code. */
const SEP = '[^A-Za-z0-9]*';

/**
 * The zeros a colour and a size lost, as the row's skuCode and materialCode show them after the model:
 * skuCode `…{model}{sep}{colour}{sep}{size}` at its end, materialCode `…{model}{sep}{colour}` at its end.
 */
function provenPadding(cells: RowCells): { color: Map<string, string>; size: string | null } {
  const model = cells('model')?.trim();
  const color = cells('color')?.trim();
  const size = cells('size')?.trim();
  const found = { color: new Map<string, string>(), size: null as string | null };
  if (!model || !color) return found;
  // A number has no leading zero: only a colour or size of digits that starts with another digit may have lost some.
  const colorLost = DIGITS.test(color) && color[0] !== '0';
  const sizeLost = !!size && DIGITS.test(size) && size[0] !== '0';
  if (!colorLost && !sizeLost) return found;
  const sku = cells('skuCode')?.trim();
  // The cheap test before the pattern: the skuCode holds the colour after a zero, or ends with the size after one.
  const skuMayProve = !!sku && !!size && ((colorLost && sku.includes(`0${color}`)) || (sizeLost && sku.endsWith(`0${size}`)));
  if (sku && size && skuMayProve) {
    const m = new RegExp(`${escape(model)}${SEP}${part(color)}${SEP}${part(size)}$`).exec(sku);
    if (m) {
      if (m[1]) found.color.set('skuCode', m[1] + color);
      if (m[2]) found.size = m[2] + size;
    }
  }
  const material = cells('materialCode')?.trim();
  if (material && colorLost && material.endsWith(`0${color}`)) {
    const m = new RegExp(`${escape(model)}${SEP}${part(color)}$`).exec(material);
    if (m?.[1]) found.color.set('materialCode', m[1] + color);
  }
  return found;
}

const NONE: readonly CodeFinding[] = Object.freeze([]);

/** A refusal of the column's cell by `problem` (scientificProblem or upcProblem), or null. */
function refusal(cells: RowCells, column: string, problem: (code: string) => string | null): CodeFinding | null {
  const value = cells(column);
  if (value === null) return null;
  const reason = problem(value.trim());
  return reason === null ? null : { column, reason };
}

/** The findings of one row of a file of `kind` (an empty list for nearly every row; called for each row, so lean). */
export function codeFindings(kind: string, cells: RowCells): readonly CodeFinding[] {
  switch (kind) {
    case 'registry':
      return registryFindings(cells);
    case 'segment': {
      const found = [refusal(cells, 'storeJda', scientificProblem), refusal(cells, 'codiceStoreSap', scientificProblem)].filter((f) => f !== null);
      return found.length === 0 ? NONE : found;
    }
    case 'module': {
      const found = refusal(cells, 'upc', upcProblem);
      return found === null ? NONE : [found];
    }
    case 'cluster': {
      if (cells('kind')?.trim().toUpperCase() !== 'STORE') return NONE;
      const found = refusal(cells, 'value', scientificProblem);
      return found === null ? NONE : [found];
    }
    default:
      return NONE;
  }
}

function registryFindings(cells: RowCells): readonly CodeFinding[] {
  const findings: CodeFinding[] = [];
  const upc = refusal(cells, 'upc', upcProblem);
  if (upc) findings.push(upc);
  let rounded = false;
  for (const column of ['model', 'color', 'size', 'materialCode', 'skuCode']) {
    const found = refusal(cells, column, scientificProblem);
    if (found) {
      findings.push(found);
      rounded = true;
    }
  }
  if (rounded) return findings;
  const proven = provenPadding(cells);
  const colors = new Set(proven.color.values());
  if (colors.size === 1) {
    const [proof, repair] = [...proven.color.entries()][0]!;
    findings.push({ column: 'color', repair, proof });
  } else if (colors.size > 1) {
    const shown = [...proven.color.entries()].map(([column, value]) => `${quoted(value)} in ${column}`).join(' and ');
    findings.push({ column: 'color', reason: `${quoted(cells('color')!.trim())} is ${shown}: a spreadsheet program may have dropped its leading zeros; format the column as text` });
  }
  if (proven.size !== null) findings.push({ column: 'size', repair: proven.size, proof: 'skuCode' });
  return findings.length === 0 ? NONE : findings;
}

/** How a load's result counts the repairs of one column: `432 colour codes repaired from skuCode`. */
export const repairLabel = (column: string, proof: string) => `${column === 'color' ? 'colour' : column} codes repaired from ${proof}`;
