/**
 * Modules as a spreadsheet: one worksheet 'Modules', the template's columns, one row per SKU line.
 * Without photos the streaming writer keeps only the current rows in memory. ExcelJS's streaming
 * worksheet cannot hold pictures (it has background images only, no drawings), so the photo variant
 * builds the ordinary in-memory workbook.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import type { ModuleFileWriter } from './export.job.js';

type CellValue = string | number | Date | null;

interface ColumnDef {
  title: string;
  /** In characters (Excel's unit). */
  width: number;
  numFmt?: string;
  value: (module: ModuleDto, sku: ProductDto) => CellValue;
}

const EURO = '#,##0.00 "€"';
const NUMBER = '#,##0.##';

/** A plain date ('2024-03-01') as the calendar day: ExcelJS writes dates in UTC. */
function calendarDay(iso: string | null): Date | null {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

/** The template column names (TEMPLATES in db/seed/reference-data.ts) and what each one writes. */
export const MODULE_COLUMNS: Record<string, ColumnDef> = {
  moduleName: { title: 'Module name', width: 18, value: (m) => m.moduleName },
  moduleLabel: { title: 'Module label', width: 28, value: (m) => m.moduleLabel },
  monthId: { title: 'Month', width: 11, value: (m) => m.monthId },
  macroFamily: { title: 'Macro family', width: 18, value: (m) => m.macroFamily },
  brand: { title: 'Brand', width: 9, value: (m) => m.brand },
  collection: { title: 'Collection', width: 11, value: (m) => m.collection },
  upc: { title: 'UPC', width: 15, value: (_, p) => p.upc },
  model: { title: 'Model', width: 12, value: (_, p) => p.model },
  color: { title: 'Color', width: 10, value: (_, p) => p.color },
  size: { title: 'Size', width: 7, value: (_, p) => p.size },
  mustHave: { title: 'MH/EL', width: 7, value: (_, p) => (p.mustHave ? 'MH' : 'EL') },
  minValue: { title: 'Min value', width: 10, numFmt: NUMBER, value: (_, p) => p.minValue },
  srp: { title: 'SRP', width: 12, numFmt: EURO, value: (_, p) => p.srp },
  whsprice: { title: 'WHS price', width: 12, numFmt: EURO, value: (_, p) => p.whsprice },
  sellIn: { title: 'Sell in', width: 9, numFmt: NUMBER, value: (_, p) => p.sellIn },
  sellOut: { title: 'Sell out', width: 9, numFmt: NUMBER, value: (_, p) => p.sellOut },
  doorIndex: { title: 'Door index', width: 11, numFmt: NUMBER, value: (_, p) => p.doorIndex },
  pty: { title: 'PTY', width: 8, numFmt: NUMBER, value: (_, p) => p.pty },
  releaseDate: { title: 'Release date', width: 13, numFmt: 'dd/mm/yyyy', value: (_, p) => calendarDay(p.releaseDate) },
  flagDisco: { title: 'Disco', width: 7, value: (_, p) => (p.flagDisco ? 'Y' : 'N') },
  globalCatalogue: { title: 'Global catalogue', width: 17, value: (_, p) => p.globalCatalogue },
};

/** A column the template names but we do not know: its name as title, empty cells. */
const unknownColumn = (name: string): ColumnDef => ({ title: name, width: Math.max(10, name.length + 2), value: () => null });

/** Pictures: 120×80 px in a first 'Photo' column, rows tall enough to show them. */
const PHOTO = { width: 120, height: 80, columnWidth: 18, rowHeightPt: 64 } as const;

export interface ModuleXlsxOptions {
  /** The template's columns, in order. */
  columns: readonly string[];
  /** With photos: draws the SKU's picture (a PNG of PHOTO.width px). */
  picture?: (sku: ProductDto) => Buffer;
}

export const XLSX_PICTURE_WIDTH = PHOTO.width;

export function createModuleXlsx(opts: ModuleXlsxOptions): ModuleFileWriter {
  const defs = opts.columns.map((c) => MODULE_COLUMNS[c] ?? unknownColumn(c));
  const picture = opts.picture;
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = picture
    ? new ExcelJS.Workbook()
    : new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Assortment Backoffice';
  workbook.created = new Date();
  const sheet = workbook.addWorksheet('Modules', { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  const photoColumns = picture ? [{ key: 'photo', width: PHOTO.columnWidth }] : [];
  sheet.columns = [...photoColumns, ...defs.map((d, i) => ({ key: `c${i}`, width: d.width, ...(d.numFmt ? { style: { numFmt: d.numFmt } } : {}) }))];
  const header = sheet.addRow([...(picture ? ['Photo'] : []), ...defs.map((d) => d.title)]);
  header.font = { bold: true };
  header.commit();

  // One picture per UPC, however many modules carry it.
  const imageIds = new Map<string, number>();

  return {
    addModule(module, lines) {
      for (const sku of lines) {
        const row = sheet.addRow([...(picture ? [null] : []), ...defs.map((d) => d.value(module, sku))]);
        if (picture) {
          row.height = PHOTO.rowHeightPt;
          let imageId = imageIds.get(sku.upc);
          if (imageId === undefined) {
            imageId = workbook.addImage({ buffer: picture(sku) as unknown as ExcelJS.Buffer, extension: 'png' });
            imageIds.set(sku.upc, imageId);
          }
          sheet.addImage(imageId, { tl: { col: 0.05, row: row.number - 1 + 0.05 }, ext: { width: PHOTO.width, height: PHOTO.height }, editAs: 'oneCell' });
        }
        row.commit();
      }
    },
    async finish() {
      if (workbook instanceof ExcelJS.stream.xlsx.WorkbookWriter) {
        sheet.commit();
        await workbook.commit();
        await ended;
        return Buffer.concat(chunks);
      }
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },
  };
}
