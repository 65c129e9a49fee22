/**
 * LibreOffice for tests that need a real spreadsheet program's files (soffice --headless, package
 * libreoffice-calc-nogui). Tests skip with SOFFICE_SKIP when it is not installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

/** The LibreOffice program on PATH, if any. */
export const SOFFICE = ['soffice', 'libreoffice'].find((bin) => {
  try {
    execFileSync('which', [bin], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

export const SOFFICE_SKIP = 'skipped: neither soffice nor libreoffice is on PATH (apt-get install libreoffice-calc-nogui to run it)';

/**
 * Converts `files` (paths in `dir`) with LibreOffice headless into `dir`, as `to` (`xlsx`…); `infilter` is the
 * import filter (for CSV options). Its own profile under `dir`, so that tests may run it side by side.
 */
export function sofficeConvert(dir: string, files: string[], to: string, infilter?: string): void {
  if (!SOFFICE) throw new Error(SOFFICE_SKIP);
  execFileSync(
    SOFFICE,
    ['--headless', '--norestore', `-env:UserInstallation=file://${join(dir, 'profile')}`, '--convert-to', to, ...(infilter ? [`--infilter=${infilter}`] : []), '--outdir', dir, ...files],
    { stdio: 'ignore', timeout: 120_000 },
  );
}

/** A cell: text, a number, a date (`YYYY-MM-DD`, a date cell shown as such or as `MM/YYYY`). */
export type TypedCell = string | number | { date: string; shown?: 'month' } | null;
export interface Tab {
  name: string;
  hidden?: boolean;
  rows: TypedCell[][];
}
export interface Spreadsheet {
  tabs: Tab[];
  /** LibreOffice's "Date: 01/01/1904" option (Excel's 1904 date system). */
  date1904?: boolean;
}

/**
 * The spreadsheet as an .xlsx for LibreOffice to open (written with ExcelJS, as the product's exports are).
 * LibreOffice's headless conversion does not take the active tab of an .ods, and always shows the active tab:
 * an .xlsx's `activeTab` (the first shown tab here) lets a hidden first tab stay hidden.
 */
async function input(sheet: Spreadsheet): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  if (sheet.date1904) wb.properties.date1904 = true;
  const active = Math.max(0, sheet.tabs.findIndex((t) => !t.hidden));
  wb.views = [{ x: 0, y: 0, width: 10000, height: 20000, firstSheet: 0, activeTab: active, visibility: 'visible' }];
  for (const tab of sheet.tabs) {
    const ws = wb.addWorksheet(tab.name, { state: tab.hidden ? 'hidden' : 'visible' });
    for (const row of tab.rows) {
      const added = ws.addRow(row.map((c) => (c !== null && typeof c === 'object' ? new Date(`${c.date}T00:00:00Z`) : c)));
      row.forEach((c, i) => {
        if (c !== null && typeof c === 'object') added.getCell(i + 1).numFmt = c.shown === 'month' ? 'mm/yyyy' : 'yyyy-mm-dd';
      });
    }
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Each spreadsheet opened in LibreOffice and saved there as .xlsx (one soffice run for all of them). */
export async function libreOfficeXlsx(sheets: Spreadsheet[]): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bo-soffice-'));
  try {
    const names = sheets.map((_, i) => `book${i}`);
    await mkdir(join(dir, 'in'));
    for (const [i, sheet] of sheets.entries()) await writeFile(join(dir, 'in', `${names[i]}.xlsx`), await input(sheet));
    sofficeConvert(dir, names.map((n) => join(dir, 'in', `${n}.xlsx`)), 'xlsx:Calc MS Excel 2007 XML');
    return await Promise.all(names.map((n) => readFile(join(dir, `${n}.xlsx`))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The workbook with its tabs in another order, its parts unchanged: what dragging a tab does in Excel, whose
 * saved file keeps each sheet's part (`xl/worksheets/sheetN.xml`) while xl/workbook.xml lists the tabs as shown.
 * `order[i]` is the tab (0-based, as saved) shown i-th.
 */
export async function moveTabs(xlsx: Buffer, order: number[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(xlsx);
  const workbook = await zip.file('xl/workbook.xml')!.async('string');
  const sheets = [...workbook.matchAll(/<sheet [^>]*\/>/g)].map((m) => m[0]);
  const moved = workbook.replace(/<sheets>.*<\/sheets>/s, `<sheets>${order.map((i) => sheets[i]).join('')}</sheets>`);
  zip.file('xl/workbook.xml', moved);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The same workbook, its zip entries stored in another order: `first` (entry names) first, the others as they were. */
export async function storeFirst(xlsx: Buffer, first: string[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(xlsx);
  const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
  const out = new JSZip();
  for (const name of [...first, ...names.filter((n) => !first.includes(n))]) out.file(name, await zip.file(name)!.async('nodebuffer'));
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** How LibreOffice writes a CSV: its separator and encoding (`windows-1252`: what Excel's "CSV" writes on Windows). */
export interface CsvOut {
  separator?: ',' | ';';
  encoding?: 'utf-8' | 'windows-1252';
}

/** LibreOffice's number for a character set in its CSV filter options (76 UTF-8, 1 Windows-1252). */
const CHARSETS = { 'utf-8': 76, 'windows-1252': 1 } as const;

/**
 * Each CSV file opened in LibreOffice with the options its import dialog proposes for a UTF-8 file (`,`, `"`,
 * detect special numbers: `003` becomes the number 3, as a user who clicks OK gets) and saved again, as CSV
 * (`to: 'csv'`, with `out`'s separator and encoding; `;` is what an Italian locale writes) or as .xlsx.
 * One soffice run for all the files; the result in the files' order.
 */
export async function libreOfficeResave(files: { name: string; content: Buffer | string }[], to: 'csv' | 'xlsx', out: CsvOut = {}): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bo-soffice-'));
  try {
    await mkdir(join(dir, 'in'));
    const stems = files.map((f, i) => `f${i}-${f.name.replace(/\.[^.]*$/, '')}`);
    for (const [i, file] of files.entries()) await writeFile(join(dir, 'in', `${stems[i]}.csv`), file.content);
    const filter =
      to === 'xlsx'
        ? 'xlsx:Calc MS Excel 2007 XML'
        : `csv:Text - txt - csv (StarCalc):${(out.separator ?? ',').charCodeAt(0)},34,${CHARSETS[out.encoding ?? 'utf-8']}`;
    sofficeConvert(dir, stems.map((s) => join(dir, 'in', `${s}.csv`)), filter, 'CSV:44,34,76');
    return await Promise.all(stems.map((s) => readFile(join(dir, `${s}.${to}`))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
