/**
 * Reads an Import Module workbook (docs/IMPORTS.md "Import Module"): the header row names the columns
 * (MODULE_IMPORT_COLUMNS), each following row is one SKU line of one module-month (import-file.ts reads
 * what every import has in common: header, groups by (Module name, Month), row errors).
 */
import { MODULE_IMPORT_COLUMNS, MODULE_IMPORT_REQUIRED } from '@bo/shared/uploads';
import { codeOfCell } from './code-cells.js';
import { IMPORT_FILE_TEXTS, type ImportFormat, type ImportGroup, type ImportRow } from './import-file.js';
import { VERSION_COLUMN_TITLE } from '../../db/product-data.js';
import { readVersion, type FileVersion } from './stale-version.js';

/** The columns of the workbook: the shared ones and the Version every export writes (stale-version.ts). */
const MODULE_FILE_COLUMNS = { ...MODULE_IMPORT_COLUMNS, version: VERSION_COLUMN_TITLE } as const;
type ModuleFileColumn = keyof typeof MODULE_FILE_COLUMNS;

export interface ImportLine {
  fileRow: number;
  upc: string;
  mustHave: boolean;
  /** null: the cell is empty (an existing line keeps its value, a new one gets 1). */
  minValue: number | null;
}

interface ModuleCreationFields {
  moduleLabel: string;
  macroFamily: string;
  brand: string;
  collection: string;
  /** null: the column is absent or empty (docs/IMPORTS.md: the zones the caller may import). */
  starZones: string[] | null;
}

/** One module-month of the file (`itemKey`: the module name): its lines, what is wrong with its cells, and how to create it. */
export interface ModuleGroup extends ImportGroup<ImportLine> {
  /** From the first row of the group that carries all of Module label, Macro family, Brand and Collection. */
  create: ModuleCreationFields | null;
  /** The module's version when the file was exported (null: no Version column or cells; not guarded). */
  fileVersion: FileVersion | null;
}


const MIN_VALUE_MAX = 99_999_999.9;

const MODULE_IMPORT_FILE_TEXTS = {
  badClass: (value: string) => `'${value}' is not MH or EL`,
  badMinValue: (value: string) => `'${value}' is not a min value (a number from 0 to 99,999,999.9, one decimal at most)`,
  badUpc: (value: string) => `'${value}' is not a UPC`,
  twice: (upc: string, row: number) => `SKU ${upc} is already on file row ${row}`,
} as const;

/** The module-months of the workbook: the columns, then one SKU line per row. */
export const MODULE_IMPORT_FORMAT: ImportFormat<ModuleFileColumn, ModuleGroup> = {
  titles: MODULE_FILE_COLUMNS,
  required: MODULE_IMPORT_REQUIRED,
  item: 'moduleName',
  month: 'monthId',
  newGroup: (g) => ({ ...g, create: null, fileVersion: null }),
  readRow,
};

function readRow(row: ImportRow<ModuleFileColumn>, group: ModuleGroup) {
  const T = MODULE_IMPORT_FILE_TEXTS;
  // A UPC typed as a number lost its leading zeros: refused with the reason (code-cells.ts), never looked up as it is.
  const code = codeOfCell(row.cell('upc'), 'upc');
  const upc = code.ok ? code.code : null;
  const cls = row.read('mustHave');
  const min = row.read('minValue');
  if (!code.ok) row.fail('upc', code.reason);
  else if (!upc && !row.errors.length) row.fail('upc', IMPORT_FILE_TEXTS.empty);
  else if (upc && !/^[\w.-]{1,20}$/.test(upc)) row.fail('upc', T.badUpc(upc));
  const upperCls = cls?.toUpperCase();
  if (upperCls !== 'MH' && upperCls !== 'EL') row.fail('mustHave', cls ? T.badClass(cls) : IMPORT_FILE_TEXTS.empty);
  let minValue: number | null = null;
  if (min) {
    const value = Number(min.replace(',', '.'));
    if (!/^\d+([.,]\d+)?$/.test(min) || !Number.isFinite(value) || value > MIN_VALUE_MAX || Math.round(value * 10) / 10 !== value) row.fail('minValue', T.badMinValue(min));
    else minValue = value;
  }
  const twice = upc ? group.lines.find((l) => l.upc === upc) : undefined;
  if (twice) row.fail('upc', T.twice(upc!, twice.fileRow));
  readVersion(row, 'version', group);
  if (row.errors.length) return;
  group.lines.push({ fileRow: row.number, upc: upc!, mustHave: upperCls === 'MH', minValue });
  if (!group.create) {
    const label = row.read('moduleLabel');
    const family = row.read('macroFamily');
    const brand = row.read('brand');
    const collection = row.read('collection');
    if (label && family && brand && collection) {
      const zones = row.read('starsZones');
      const starZones = zones ? [...new Set(zones.split(/[,\s]+/).filter(Boolean))] : null;
      group.create = { moduleLabel: label, macroFamily: family, brand, collection, starZones: starZones?.length ? starZones : null };
    }
  }
}
