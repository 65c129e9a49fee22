/**
 * A release as its five files (Reference Data and the four) (the formats the loader reads, CSV with `,`), written in pages to a
 * stream (never the whole release in memory), and the header-only templates (CSV and xlsx).
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Db } from '../../../db/client.js';
import { escapeFormula } from '../../../lib/csv-formula.js';
import { notFound } from '../../../lib/errors.js';
import { FORMATS, formatCell, type FileFormat, type LoaderFileKind } from './formats.js';
import { referenceRows } from './reference-rows.repository.js';
import { clusterLines, findRelease, itemPage, moduleLines, registryPage, segmentPage, type ExportRow, type ItemKey } from './release-loader.repository.js';

const PAGE_ROWS = 10_000;
/** Items per page of the module and cluster files (their lines come with them). */
const PAGE_ITEMS = 500;

/**
 * One CSV field: escaped when a spreadsheet would run it as a formula (lib/csv-formula.ts: a leading `'`),
 * then quoted when it holds the separator, a quote, a line break or edge spaces. Every CSV the product
 * writes goes through here.
 */
export function csvField(field: string, delimiter = ','): string {
  if (field === '') return '';
  const value = escapeFormula(field);
  if (value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r') || value.trim() !== value) {
    return `"${value.replace(/"/g, '""')}"`;
  }
  return value;
}

const csvLine = (cells: string[], delimiter = ',') => `${cells.map((c) => csvField(c, delimiter)).join(delimiter)}\r\n`;

/** Writes, waiting when the stream asks to. */
async function put(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      out.off('drain', done);
      out.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    out.on('drain', done);
    out.on('error', done);
  });
}

const rowLine = (format: FileFormat, row: ExportRow) => csvLine(format.columns.map((c) => formatCell(c, row[c.db])));

/** The CSV template of a file: its header row. */
export const templateCsv = (kind: LoaderFileKind) => csvLine(FORMATS[kind].columns.map((c) => c.name));

/** The xlsx template of a file: one worksheet with the header row. */
export async function templateXlsx(kind: LoaderFileKind): Promise<Buffer> {
  const format = FORMATS[kind];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(format.title);
  sheet.addRow(format.columns.map((c) => c.name)).font = { bold: true };
  sheet.columns.forEach((column) => {
    column.width = 18;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const exportFileName = (releaseId: string, kind: LoaderFileKind) => `${releaseId}-${FORMATS[kind].field}.csv`;

/**
 * Writes one file of the release to `out` (not ended: the caller ends or pipes on). The reference data,
 * the registry and the segmentation are the whole master data (every SKU, every store); the module and cluster files
 * hold the release's live items. Answers the rows written.
 */
export async function exportReleaseFile(db: Db, releaseId: string, kind: LoaderFileKind, out: Writable): Promise<number> {
  if (!(await findRelease(db, releaseId))) throw notFound(`The release ${releaseId} does not exist`);
  const format = FORMATS[kind];
  await put(out, csvLine(format.columns.map((c) => c.name)));
  let written = 0;
  if (kind === 'reference') {
    // Every reference row (a few thousand at most: one page).
    const rows = await referenceRows(db);
    await put(out, rows.map((row) => rowLine(format, row)).join(''));
    return rows.length;
  }
  if (kind === 'registry' || kind === 'segment') {
    const key = kind === 'registry' ? 'upc' : 'store_jda';
    const page = kind === 'registry' ? registryPage : segmentPage;
    let after = '';
    for (;;) {
      const rows = await page(db, after, PAGE_ROWS);
      if (rows.length === 0) break;
      let chunk = '';
      for (const row of rows) chunk += rowLine(format, row);
      await put(out, chunk);
      written += rows.length;
      after = String(rows[rows.length - 1]![key]);
      if (rows.length < PAGE_ROWS) break;
    }
    return written;
  }
  let after: ItemKey | null = null;
  for (;;) {
    const items = await itemPage(db, kind, releaseId, after, PAGE_ITEMS);
    if (items.length === 0) break;
    const ids = items.map((i) => i.id);
    const rows = kind === 'module' ? await moduleLines(db, ids) : await clusterLines(db, ids);
    let chunk = '';
    for (const row of rows) chunk += rowLine(format, row);
    await put(out, chunk);
    written += rows.length;
    after = items[items.length - 1]!;
    if (items.length < PAGE_ITEMS) break;
  }
  return written;
}
