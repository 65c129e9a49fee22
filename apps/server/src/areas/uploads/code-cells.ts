/**
 * Code cells of an imported workbook (Import Module's UPC, Import Cluster's store codes) that a spreadsheet
 * program may have turned into numbers (docs/SPREADSHEET-FILES.md). xlsx-rows.ts gives a number cell as a
 * number, so the reader knows the cell was a number: a UPC typed as a number has no leading zeros left.
 * The rule, for the import's per-column readers (module-import-file.ts, cluster-import-file.ts):
 *
 * - `codeOfCell` reads a code cell: text as it is (a text UPC of 9–11 digits with a valid check digit is refused,
 *   as in the release files: code-columns.ts `upcProblem`); a number cell as its digits, refused when it cannot
 *   be a code any more: a UPC of fewer than 12 digits, a fraction, a number past 2^53 (rounded);
 * - `restoreZeros` is the one repair the import may make with the database: the code as it was when exactly one
 *   known code (the SKUs of the module's brand, the stores) is that code with its leading zeros, else null.
 */
import { scientificProblem, upcProblem } from './release-loader/code-columns.js';
import type { Cell } from '../../lib/xlsx/xlsx-rows.js';

type CodeKind = 'upc' | 'store';

type CodeCell = { ok: true; code: string | null } | { ok: false; reason: string };

/** The shortest UPC: UPC-A's 12 digits (an EAN-13 has 13). */
const UPC_DIGITS = 12;

/** A code cell as text, or why it is refused (the reason names the value and what to do). */
export function codeOfCell(cell: Cell, kind: CodeKind): CodeCell {
  if (cell === null) return { ok: true, code: null };
  if (typeof cell === 'number') {
    if (!Number.isSafeInteger(cell) || cell < 0) {
      return { ok: false, reason: `${String(cell)} is a number a spreadsheet program rounded or changed: format the column as text and type the code again` };
    }
    const digits = String(cell);
    if (kind === 'upc' && digits.length < UPC_DIGITS) {
      return { ok: false, reason: `'${digits}' is a number cell of ${digits.length} digits: a spreadsheet program dropped its leading zeros; format the column as text and type the UPC with its zeros` };
    }
    return { ok: true, code: digits };
  }
  if (typeof cell === 'string') {
    const code = cell.trim();
    if (code === '') return { ok: true, code: null };
    const reason = kind === 'upc' ? upcProblem(code) : scientificProblem(code);
    return reason ? { ok: false, reason } : { ok: true, code };
  }
  if (typeof cell === 'boolean') return { ok: false, reason: `${cell ? 'TRUE' : 'FALSE'} is not a code` };
  return { ok: false, reason: 'the cell holds an error' };
}

/** The known code that is `code` with leading zeros put back, when exactly one is; null otherwise (or when `code` is known as it is). */
export function restoreZeros(code: string, known: Iterable<string>): string | null {
  if (!/^\d+$/.test(code)) return null;
  let found: string | null = null;
  for (const candidate of known) {
    if (candidate === code) return null;
    if (candidate.length > code.length && candidate.endsWith(code) && /^0+$/.test(candidate.slice(0, candidate.length - code.length))) {
      if (found !== null && found !== candidate) return null;
      found = candidate;
    }
  }
  return found;
}
