/**
 * The spreadsheet side shared by module and cluster exports: a workbook (ExcelJS's streaming writer,
 * or the in-memory workbook when pictures are embedded: the streaming worksheet cannot hold drawings),
 * sheets with a bold frozen header, and rows whose cells are only ever plain values.
 *
 * Formula-safe cells (contract §7): a cell is written from a string, number, date or nothing, never
 * from an object, so no path can write `{ formula }`; a text such as "=SUM(1,2)" is stored as a
 * string cell and opens as text.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ProductDto } from '@bo/shared/modules';

export type CellValue = string | number | Date | null;

export interface ColumnSpec {
  title: string;
  /** In characters (Excel's unit). */
  width: number;
  numFmt?: string;
}

/** Pictures: 120×80 px in a first 'Photo' column, rows tall enough to show them. */
export const PHOTO = { width: 120, height: 80, columnWidth: 18, rowHeightPt: 64 } as const;

/** Excel's limit on the text of one cell. */
const MAX_CELL_TEXT = 32767;

/** The only values a cell gets: strings (cut to Excel's limit), finite numbers, dates, or empty. */
function plainCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const text = String(value);
  return text.length > MAX_CELL_TEXT ? `${text.slice(0, MAX_CELL_TEXT - 1)}…` : text;
}

interface BookSheet {
  /** One row; with `sku` (a sheet with photos) its picture in the first column. */
  addRow(values: readonly unknown[], sku?: ProductDto): void;
}

interface Book {
  sheet(name: string, columns: readonly ColumnSpec[], opts?: { photo?: boolean }): BookSheet;
  /** Writes the rest of the file to `sink`. */
  finish(): Promise<void>;
  /**
   * Resolves once the sheets' XML waiting for the compression is under MAX_PENDING_BYTES. ExcelJS's
   * streaming writer hands each row to the zip without waiting: written faster than zlib compresses,
   * the XML piles up (80 MB for 100,000 rows). The job waits on this between items.
   */
  drained(): Promise<void>;
}

/** How much of a sheet's XML may wait for the compression (see `drained`). */
const MAX_PENDING_BYTES = 1024 * 1024;

/**
 * The bytes a sheet's stream has handed to the zip that the zip has not taken yet. ExcelJS's StreamBuf
 * writes into archiver's entry stream (readable-stream 2, no `writableLength`): its writable state says.
 */
function pendingBytes(sheet: ExcelJS.Worksheet): number {
  const pipes = (sheet as unknown as { stream?: { pipes?: { _writableState?: { length?: number } }[] } }).stream?.pipes ?? [];
  return pipes.reduce((sum, pipe) => sum + (pipe._writableState?.length ?? 0), 0);
}

/** A workbook whose bytes go to `sink` as the streaming writer makes them (all at the end with pictures). */
export function createBook(sink: (chunk: Buffer) => void, picture?: (sku: ProductDto) => Buffer): Book {
  const out = new PassThrough();
  out.on('data', (chunk: Buffer) => sink(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = picture
    ? new ExcelJS.Workbook()
    : new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Assortment Backoffice';
  workbook.created = new Date();
  const sheets: ExcelJS.Worksheet[] = [];
  // One picture per UPC for the whole workbook, however many rows show it.
  const imageIds = new Map<string, number>();

  return {
    sheet(name, columns, opts = {}) {
      const photo = Boolean(picture && opts.photo);
      const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
      sheets.push(sheet);
      sheet.columns = [
        ...(photo ? [{ key: 'photo', width: PHOTO.columnWidth }] : []),
        ...columns.map((c, i) => ({ key: `c${i}`, width: c.width, ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}) })),
      ];
      // One style object per column, shared by its cells: ExcelJS then finds each cell's style id in
      // its cache instead of rendering the style of every cell anew (most of the writing time otherwise).
      const styles: Partial<ExcelJS.Style>[] = [...(photo ? [{}] : []), ...columns.map((c) => (c.numFmt ? { numFmt: c.numFmt } : {}))];
      const header = sheet.addRow([...(photo ? ['Photo'] : []), ...columns.map((c) => plainCell(c.title))]);
      header.font = { bold: true };
      header.commit();
      return {
        addRow(values, sku) {
          const row = sheet.addRow([...(photo ? [null] : []), ...values.map(plainCell)]);
          row.eachCell((cell, column) => {
            cell.style = styles[column - 1]!;
          });
          if (photo && sku && picture) {
            row.height = PHOTO.rowHeightPt;
            let imageId = imageIds.get(sku.upc);
            if (imageId === undefined) {
              imageId = workbook.addImage({ buffer: picture(sku) as unknown as ExcelJS.Buffer, extension: 'png' });
              imageIds.set(sku.upc, imageId);
            }
            sheet.addImage(imageId, { tl: { col: 0.05, row: row.number - 1 + 0.05 }, ext: { width: PHOTO.width, height: PHOTO.height }, editAs: 'oneCell' });
          }
          row.commit();
        },
      };
    },
    async drained() {
      if (!(workbook instanceof ExcelJS.stream.xlsx.WorkbookWriter)) return;
      for (const sheet of sheets) {
        while (pendingBytes(sheet) > MAX_PENDING_BYTES) await new Promise((resolve) => setTimeout(resolve, 1));
      }
    },
    async finish() {
      if (workbook instanceof ExcelJS.stream.xlsx.WorkbookWriter) {
        for (const sheet of sheets) sheet.commit();
        await workbook.commit();
        await ended;
        return;
      }
      sink(Buffer.from(await workbook.xlsx.writeBuffer()));
    },
  };
}
