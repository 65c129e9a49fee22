/**
 * Modules as a spreadsheet: one worksheet 'Modules', the template's columns, one row per SKU line
 * (xlsx-book.ts: streaming without photos, in memory with them).
 */
import { formatMonthId } from '@bo/shared/months';
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import { VERSION_COLUMN_TITLE } from '../../db/product-data.js';
import type { FileWriter } from './export-kind.js';
import { createBook, PHOTO, type CellValue, type ColumnSpec } from './xlsx-book.js';

interface ModuleColumnDef extends ColumnSpec {
  value: (module: ModuleDto, sku: ProductDto) => CellValue;
}

const EURO = '#,##0.00 "€"';
const NUMBER = '#,##0.##';

/** A plain date ('2024-03-01') as the calendar day: ExcelJS writes dates in UTC. */
function calendarDay(iso: string | null): Date | null {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

/** The template column names (TEMPLATES in db/product-data.ts) and what each one writes. */
export const MODULE_COLUMNS: Record<string, ModuleColumnDef> = {
  moduleName: { title: 'Module name', width: 18, value: (m) => m.moduleName },
  moduleLabel: { title: 'Module label', width: 28, value: (m) => m.moduleLabel },
  moduleDescription: { title: 'Module description', width: 30, value: (m) => m.moduleDescription },
  // As people read months (03/2027); Import Module reads this form back (uploads/import-file.ts monthOf).
  monthId: { title: 'Month', width: 11, value: (m) => formatMonthId(m.monthId) },
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
  // The module's version when exported: Import Module refuses a module changed since (areas/uploads/stale-version.ts).
  version: { title: VERSION_COLUMN_TITLE, width: 9, value: (m) => m.version },
};

/** A column the template names but we do not know: its name as title, empty cells. */
export const unknownColumn = (name: string): ModuleColumnDef => ({ title: name, width: Math.max(10, name.length + 2), value: () => null });

/** A module and the SKU lines to write (no REMOVED ones), Must Have first. */
export interface ModuleUnit {
  module: ModuleDto;
  lines: readonly ProductDto[];
}

interface ModuleXlsxOptions {
  /** The template's columns, in order. */
  columns: readonly string[];
  /** With photos: draws the SKU's picture (a PNG of PHOTO.width px). */
  picture?: (sku: ProductDto) => Buffer;
  /** Where the file's bytes go. */
  out: (chunk: Buffer) => void;
}

export const XLSX_PICTURE_WIDTH = PHOTO.width;

export function createModuleXlsx(opts: ModuleXlsxOptions): FileWriter<ModuleUnit> {
  const defs = opts.columns.map((c) => MODULE_COLUMNS[c] ?? unknownColumn(c));
  const book = createBook(opts.out, opts.picture);
  const sheet = book.sheet('Modules', defs, { photo: true });
  return {
    add({ module, lines }) {
      for (const sku of lines) sheet.addRow(defs.map((d) => d.value(module, sku)), sku);
    },
    finish: () => book.finish(),
    drained: () => book.drained(),
  };
}
