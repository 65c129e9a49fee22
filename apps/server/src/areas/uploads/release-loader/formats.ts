/**
 * The four release files (part 2 §2 "Upload Files (/uploadTwo)", issue 15) and the optional fifth,
 * Reference Data (issue 33): their columns, types and rules, once. The parsers, the staging tables, the templates and the export all read this file;
 * docs/RELEASE-FILES.md describes the same columns for people (a test checks that it lists them all).
 */
import { LIMITS } from '@bo/shared/validation';
import { INT4_MAX } from '@bo/shared/numbers';
import { COMPOSITION_STATUSES, CLUSTER_COMPOSITION_STATUSES } from '@bo/shared/statuses';
import { unescapeFormula } from '../../../lib/csv-formula.js';

export const RELEASE_FILE_KINDS = ['registry', 'segment', 'module', 'cluster'] as const;
export type ReleaseFileKind = (typeof RELEASE_FILE_KINDS)[number];
/** The fifth, optional file: Reference Data (brands, collections, …), loaded before the four. */
const REFERENCE_KIND = 'reference' as const;
/** Every file the loader reads, in the order it stages them. */
export const LOADER_FILE_KINDS = [REFERENCE_KIND, ...RELEASE_FILE_KINDS] as const;
export type LoaderFileKind = (typeof LOADER_FILE_KINDS)[number];

/** massive: the files replace the release's modules and clusters; delta: the items in the files are inserted or updated. */
export type LoadType = 'massive' | 'delta';

/** Separator of the values of a list cell (`EU|NA`). */
const LIST_SEPARATOR = '|';

/** Errors listed in a refusal; all are counted. */
export const MAX_LISTED_ERRORS = 1000;

/**
 * Cells (rows × columns) per staging statement of the careful way. The driver turns each column into an array
 * literal on the thread that answers the planners, all of a statement's in one go: measured here ~5 µs a cell
 * (a chunk of 20,000 cells of the Customer Segmentation held that thread 97 ms). 10,000 cells bound a hold to
 * ~50 ms; before, 10,000 rows a statement were 320,000 cells for the Sku Registry (31 columns), ~1.5 s at that rate.
 */
export const CHUNK_CELLS = 10_000;

type ColumnType =
  | { kind: 'text'; max?: number }
  | { kind: 'int'; min: number; max: number }
  /** A `bigint` read as a JavaScript number: 1 … 2^53 − 1. */
  | { kind: 'bigint' }
  | { kind: 'decimal'; precision: number; scale: number; min: number }
  | { kind: 'bool' }
  | { kind: 'date' }
  | { kind: 'enum'; values: readonly string[] }
  /** MH or EL, stored as must_have = true / false. */
  | { kind: 'mhel' }
  /** Codes separated by LIST_SEPARATOR, stored as that text (blanks and repeats dropped, order kept). */
  | { kind: 'list'; max?: number };

export interface ColumnSpec {
  /** The header of the column in the files. */
  name: string;
  /** Its column in the staging table. */
  db: string;
  type: ColumnType;
  /** An empty cell is an error. */
  required?: boolean;
  /** The value of an empty cell (otherwise null). */
  default?: string | number | boolean;
  description: string;
}

export interface FileFormat {
  kind: LoaderFileKind;
  /** How errors and documents name the file. */
  title: string;
  /** The multipart field of the upload (part 2 §3). */
  field: string;
  columns: readonly ColumnSpec[];
}

const text = (max?: number): ColumnType => (max === undefined ? { kind: 'text' } : { kind: 'text', max });
const BOOL: ColumnType = { kind: 'bool' };
const DATE: ColumnType = { kind: 'date' };
const MONEY: ColumnType = { kind: 'decimal', precision: 12, scale: 2, min: 0 };
const CODE = text(100);
const MONTH: ColumnType = { kind: 'text', max: 8 };

const CLUSTER_LINE_KINDS = ['CLUSTER', 'COUNTRY', 'ZONE', 'LIA', 'CLASSIFICATION', 'STORE', 'MODULE'] as const;

const REGISTRY: FileFormat = {
  kind: 'registry',
  title: 'Sku Registry',
  field: 'registry',
  columns: [
    { name: 'upc', db: 'upc', type: text(20), required: true, description: 'The SKU key (digits as text).' },
    { name: 'skuId', db: 'sku_id', type: { kind: 'bigint' }, required: true, description: 'Numeric SKU id, unique across SKUs.' },
    { name: 'model', db: 'model', type: CODE, required: true, description: 'Model code.' },
    { name: 'color', db: 'color', type: CODE, required: true, description: 'Colour code.' },
    { name: 'colorDescription', db: 'color_description', type: text(200), required: true, description: 'Colour text.' },
    { name: 'size', db: 'size', type: CODE, required: true, description: 'Size.' },
    { name: 'materialCode', db: 'material_code', type: CODE, required: true, description: 'Material code (model + colour).' },
    { name: 'skuCode', db: 'sku_code', type: CODE, required: true, description: 'SKU code (grid).' },
    { name: 'brandCode', db: 'brand_code', type: CODE, required: true, description: 'An existing brand.' },
    { name: 'collection', db: 'collection', type: CODE, required: true, description: 'An existing collection (SUN, OPTICAL).' },
    { name: 'planningChannelId', db: 'planning_channel_id', type: CODE, description: 'An existing planning channel, or empty.' },
    { name: 'srp', db: 'srp', type: MONEY, required: true, description: 'Suggested retail price, 2 decimals.' },
    { name: 'whsprice', db: 'whsprice', type: MONEY, required: true, description: 'Wholesale price, 2 decimals.' },
    { name: 'releaseDate', db: 'release_date', type: DATE, required: true, description: 'YYYY-MM-DD.' },
    { name: 'insertDate', db: 'insert_date', type: DATE, required: true, description: 'YYYY-MM-DD.' },
    { name: 'gedExpireDate', db: 'ged_expire_date', type: DATE, description: 'YYYY-MM-DD or empty.' },
    { name: 'gedConfirmed', db: 'ged_confirmed', type: BOOL, default: false, description: 'true/false.' },
    { name: 'flagN', db: 'flag_n', type: BOOL, default: false, description: 'true/false.' },
    { name: 'flagNewAdv', db: 'flag_new_adv', type: BOOL, default: false, description: 'true/false.' },
    { name: 'flagDisco', db: 'flag_disco', type: BOOL, default: false, description: 'true/false: discontinued.' },
    { name: 'discoType', db: 'disco_type', type: text(50), description: "Disco type, e.g. 'Disco', 'Super disco'." },
    { name: 'globalCatalogue', db: 'global_catalogue', type: text(20), default: 'YES', description: 'YES, Restrict, NO or another value.' },
    { name: 'polar', db: 'polar', type: BOOL, default: false, description: 'true/false.' },
    { name: 'sapStatus', db: 'sap_status', type: text(10), description: "SAP status; 'Z' or 'I' mark the SKU disabled." },
    { name: 'deleted', db: 'deleted', type: BOOL, default: false, description: 'true/false: removed SKU.' },
    { name: 'newIn', db: 'new_in', type: BOOL, default: false, description: 'true/false.' },
    { name: 'gender', db: 'gender', type: text(50), required: true, description: 'Gender.' },
    { name: 'frameMaterial', db: 'frame_material', type: text(50), required: true, description: 'Frame material.' },
    { name: 'marketingTheme', db: 'marketing_theme', type: text(100), required: true, description: 'Marketing theme.' },
    { name: 'prizm', db: 'prizm', type: BOOL, default: false, description: 'true/false.' },
    { name: 'legoClass', db: 'lego_class', type: text(100), description: 'LEGO class description, or empty.' },
  ],
};

const SEGMENT: FileFormat = {
  kind: 'segment',
  title: 'Customer Segmentation',
  field: 'segment',
  columns: [
    { name: 'storeJda', db: 'store_jda', type: text(30), required: true, description: 'The store key.' },
    { name: 'codiceStoreSap', db: 'codice_store_sap', type: text(30), required: true, description: 'SAP store code, unique across stores.' },
    { name: 'storeName', db: 'store_name', type: text(200), required: true, description: 'Store name.' },
    { name: 'countryCode', db: 'country_code', type: CODE, required: true, description: "An existing country: the store's." },
    { name: 'customerSegmentation', db: 'customer_segmentation', type: CODE, required: true, description: 'Segmentation code (created or updated).' },
    { name: 'segmentationLabel', db: 'segmentation_label', type: text(100), required: true, description: "The segmentation's label (the same on every row of a segmentation)." },
    { name: 'planningChannelId', db: 'planning_channel_id', type: CODE, required: true, description: "An existing planning channel: the store's." },
    { name: 'starsCustomer', db: 'stars_customer', type: CODE, required: true, description: 'Stars customer code (created or updated).' },
    { name: 'starsCustomerName', db: 'customer_name', type: text(200), required: true, description: "The stars customer's name (the same on every row of a customer, as the next three)." },
    { name: 'starsCustomerCountry', db: 'customer_country', type: CODE, required: true, description: "An existing country: the stars customer's." },
    { name: 'starsCustomerPlanningChannel', db: 'customer_planning_channel', type: CODE, required: true, description: "An existing planning channel: the stars customer's." },
    { name: 'distributionChannel', db: 'distribution_channel', type: text(100), required: true, description: "The stars customer's distribution channel." },
  ],
};

/**
 * The first columns of an item file (Module or Cluster Composition): the item's key (with monthId), its
 * month, label and description. `monthDescription` is the file's own wording of the month.
 */
function itemHeadColumns(item: 'module' | 'cluster', key: string, keyDb: string, keyMax: number, monthDescription: string): ColumnSpec[] {
  return [
    { name: key, db: keyDb, type: text(keyMax), required: true, description: `${item === 'module' ? 'Module' : 'Cluster'} key, with monthId.` },
    { name: 'monthId', db: 'month_id', type: MONTH, required: true, description: monthDescription },
    { name: `${item}Label`, db: `${item}_label`, type: text(LIMITS[`${item}Label`]), required: true, description: 'Label.' },
    { name: `${item}Description`, db: `${item}_description`, type: text(LIMITS.description), default: '', description: 'Description.' },
  ];
}

/** The owner columns of an item file, after its head: brand, collection and planning channel. */
const ITEM_OWNER_COLUMNS: readonly ColumnSpec[] = [
  { name: 'brandCode', db: 'brand_code', type: CODE, required: true, description: 'An existing brand.' },
  { name: 'collection', db: 'collection', type: CODE, required: true, description: 'An existing collection.' },
  { name: 'planningChannelId', db: 'planning_channel_id', type: CODE, description: 'An existing planning channel, or empty.' },
];

export const MODULE: FileFormat = {
  kind: 'module',
  title: 'Module Composition',
  field: 'module',
  columns: [
    ...itemHeadColumns('module', 'moduleName', 'module_name', LIMITS.moduleName, 'A month of the release (M03_2027).'),
    { name: 'macroFamily', db: 'macro_family', type: CODE, required: true, description: 'An existing macro family.' },
    ...ITEM_OWNER_COLUMNS,
    { name: 'newModule', db: 'new_module', type: BOOL, default: false, description: 'true = Newness, false = Carry Over.' },
    { name: 'initialSize', db: 'initial_size', type: { kind: 'int', min: 0, max: INT4_MAX }, description: 'Whole number ≥ 0, or empty.' },
    { name: 'starsZones', db: 'stars_zones', type: { kind: 'list', max: 1000 }, default: '', description: 'Existing stars zones separated by |, e.g. EU|NA.' },
    { name: 'upc', db: 'upc', type: text(20), description: 'A SKU of the Sku Registry or of the database; empty = a module without SKU lines.' },
    { name: 'mustHave', db: 'must_have', type: { kind: 'mhel' }, default: true, description: 'MH (must have) or EL (eligible); MH when empty.' },
    { name: 'status', db: 'status', type: { kind: 'enum', values: COMPOSITION_STATUSES }, default: 'ADDED', description: 'ADDED, NEW or REMOVED (in the bin); ADDED when empty.' },
    { name: 'previousStatus', db: 'previous_status', type: { kind: 'enum', values: COMPOSITION_STATUSES }, description: 'Status before the bin, or empty.' },
    { name: 'previousMustHave', db: 'previous_must_have', type: { kind: 'mhel' }, description: 'MH/EL before the bin, or empty.' },
    { name: 'minValue', db: 'min_value', type: { kind: 'decimal', precision: 9, scale: 1, min: 1 }, default: 1, description: 'At least 1, one decimal; 1 when empty.' },
    { name: 'position', db: 'position', type: { kind: 'int', min: 0, max: INT4_MAX }, default: 0, description: 'Order of the SKU in the module; 0 when empty.' },
  ],
};

export const CLUSTER: FileFormat = {
  kind: 'cluster',
  title: 'Cluster Composition',
  field: 'cluster',
  columns: [
    ...itemHeadColumns('cluster', 'clusterId', 'cluster_id', LIMITS.clusterId, 'A month of the release.'),
    ...ITEM_OWNER_COLUMNS,
    { name: 'rangeFacing', db: 'range_facing', type: text(100), description: 'Range facing, or empty.' },
    { name: 'kind', db: 'kind', type: { kind: 'enum', values: CLUSTER_LINE_KINDS }, required: true, description: 'What the row adds to the cluster: CLUSTER (nothing), COUNTRY, ZONE, LIA, CLASSIFICATION, STORE or MODULE.' },
    { name: 'value', db: 'value', type: text(100), description: 'Country code, zone code, LIA code, classification label, storeJda or moduleName; empty for CLUSTER.' },
    { name: 'moduleStatus', db: 'module_status', type: { kind: 'enum', values: CLUSTER_COMPOSITION_STATUSES }, description: 'MODULE rows: ADDED or REMOVED (in the bin); ADDED when empty.' },
  ],
};

/**
 * The kinds of rows of the Reference Data file, in the order they are written (a parent before its
 * children: stars zones before countries, planning channels before LIAs). `parent` is, for a COUNTRY, its
 * stars zone; for a LIA, its planning channel; for a MACRO_FAMILY, its special kind or empty.
 */
export const REFERENCE_ROW_KINDS = ['BRAND', 'COLLECTION', 'PLANNING_CHANNEL', 'STARS_ZONE', 'COUNTRY', 'LIA', 'MACRO_FAMILY', 'CLIENT_CLASSIFICATION'] as const;
export type ReferenceRowKind = (typeof REFERENCE_ROW_KINDS)[number];
/** The special kinds of a macro family (listed first on the screens). */
export const MACRO_FAMILY_SPECIAL_KINDS = ['BEST_SELLER', 'NEWNESS'] as const;

export const REFERENCE: FileFormat = {
  kind: REFERENCE_KIND,
  title: 'Reference Data',
  field: 'reference',
  columns: [
    { name: 'kind', db: 'kind', type: { kind: 'enum', values: REFERENCE_ROW_KINDS }, required: true, description: REFERENCE_ROW_KINDS.join(', ') + '.' },
    { name: 'code', db: 'code', type: CODE, required: true, description: 'The code (brand code, country code, LIA code, macro family name, classification label …), unique per kind.' },
    {
      name: 'label',
      db: 'label',
      type: text(200),
      description: 'The name or description: required for BRAND, COLLECTION, PLANNING_CHANNEL, STARS_ZONE and COUNTRY; empty for LIA, MACRO_FAMILY and CLIENT_CLASSIFICATION (they have none).',
    },
    {
      name: 'parent',
      db: 'parent',
      type: CODE,
      description: 'COUNTRY: its stars zone (required); LIA: its planning channel (required); MACRO_FAMILY: its special kind, BEST_SELLER or NEWNESS, or empty; empty for the other kinds. A parent is in this file or in the database.',
    },
  ],
};

export const FORMATS: Record<LoaderFileKind, FileFormat> = { reference: REFERENCE, registry: REGISTRY, segment: SEGMENT, module: MODULE, cluster: CLUSTER };

/** The SQL type of a column in its staging table. */
export function sqlType(type: ColumnType): string {
  switch (type.kind) {
    case 'int':
      return 'integer';
    case 'bigint':
      return 'bigint';
    case 'decimal':
      return 'numeric';
    case 'bool':
    case 'mhel':
      return 'boolean';
    case 'date':
      return 'date';
    default:
      return 'text';
  }
}

export type CellValue = string | number | boolean | null;

/** A parsed cell, or the reason it was refused. */
type Parsed = { ok: true; value: CellValue } | { ok: false; reason: string };

const ok = (value: CellValue): Parsed => ({ ok: true, value });
const fail = (reason: string): Parsed => ({ ok: false, reason });
const quote = (raw: string) => `'${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}'`;

/** Why a cell's text cannot be stored (PostgreSQL's text holds neither NUL nor anything but UTF-8). */
export const CELL_TEXT_REASONS = {
  nul: 'holds a NUL character (0x00), which cannot be stored',
  notUtf8: 'holds bytes that are not valid UTF-8, which cannot be stored',
} as const;

/** A NUL or a UTF-16 surrogate: the quick test before the exact one. */
const SUSPECT = /[\0\uD800-\uDFFF]/;
/** A surrogate without its pair: bytes that were not UTF-8 (utf8-text.ts), or an xlsx's `_xD800_`. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a cell's text cannot be stored, or null. Both loader paths (fast-stage.ts, stage-file.ts) read every
 * cell through parseCell, which asks this first: such a cell is a cell error like any other, found before
 * anything is staged (a NUL in a statement's parameters would fail the statement, not name the cell).
 */
export function cellTextProblem(raw: string): string | null {
  if (!SUSPECT.test(raw)) return null;
  if (raw.includes('\0')) return CELL_TEXT_REASONS.nul;
  return LONE_SURROGATE.test(raw) ? CELL_TEXT_REASONS.notUtf8 : null;
}

const BOOL_TRUE: ReadonlySet<string> = new Set(['true', '1', 'yes', 'y', 'si', 'x']);
const BOOL_FALSE: ReadonlySet<string> = new Set(['false', '0', 'no', 'n']);

/** One cell of a column: trimmed text in, the typed value (or the column's default for an empty cell) out. */
export function parseCell(spec: ColumnSpec, raw: string | null): Parsed {
  const problem = raw === null ? null : cellTextProblem(raw);
  if (problem !== null) return fail(problem);
  // A field the CSV writer escaped (`'=…`, lib/csv-formula.ts) reads back as it was; after the trim, so the
  // quote keeps a value's leading tab or carriage return.
  const value = raw === null ? '' : unescapeFormula(raw.trim());
  if (value === '') {
    if (spec.required) return fail('required');
    return ok(spec.default ?? null);
  }
  const type = spec.type;
  switch (type.kind) {
    case 'text':
      if (type.max !== undefined && value.length > type.max) return fail(`at most ${type.max} characters (${value.length})`);
      return ok(value);
    case 'int': {
      if (!/^-?\d+$/.test(value)) return fail(`${quote(value)} is not a whole number`);
      const n = Number(value);
      if (n < type.min || n > type.max) return fail(`${value} is not between ${type.min} and ${type.max}`);
      return ok(n);
    }
    case 'bigint': {
      if (!/^\d+$/.test(value)) return fail(`${quote(value)} is not a whole number`);
      const n = Number(value);
      if (n < 1 || n > Number.MAX_SAFE_INTEGER) return fail(`${value} is not between 1 and ${Number.MAX_SAFE_INTEGER}`);
      return ok(n);
    }
    case 'decimal': {
      // A decimal comma is accepted (files saved with Italian settings): 12,5 = 12.5; no thousands separators.
      const normal = value.includes('.') ? value : value.replace(',', '.');
      const match = /^(\d+)(?:\.(\d+))?$/.exec(normal);
      if (!match) return fail(`${quote(value)} is not a number`);
      const decimals = (match[2] ?? '').replace(/0+$/, '');
      if (decimals.length > type.scale) return fail(`${value} has more than ${type.scale} decimal${type.scale === 1 ? '' : 's'}`);
      const n = Number(normal);
      const max = Number(`${'9'.repeat(type.precision - type.scale)}.${'9'.repeat(type.scale)}`);
      if (n < type.min || n > max) return fail(`${value} is not between ${type.min} and ${max}`);
      return ok(n);
    }
    case 'bool': {
      const lower = value.toLowerCase();
      if (BOOL_TRUE.has(lower)) return ok(true);
      if (BOOL_FALSE.has(lower)) return ok(false);
      return fail(`${quote(value)} is not true or false`);
    }
    case 'date': {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!match) return fail(`${quote(value)} is not a date (YYYY-MM-DD)`);
      const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const date = new Date(Date.UTC(y, m - 1, d));
      if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return fail(`${value} is not a date`);
      return ok(value);
    }
    case 'enum': {
      if (type.values.includes(value)) return ok(value);
      const upper = value.toUpperCase();
      const found = type.values.find((v) => v.toUpperCase() === upper);
      return found ? ok(found) : fail(`${quote(value)} is not one of ${type.values.join(', ')}`);
    }
    case 'mhel': {
      const upper = value.toUpperCase();
      if (upper === 'MH') return ok(true);
      if (upper === 'EL') return ok(false);
      return fail(`${quote(value)} is not MH or EL`);
    }
    case 'list': {
      if (type.max !== undefined && value.length > type.max) return fail(`at most ${type.max} characters (${value.length})`);
      const items = [...new Set(value.split(LIST_SEPARATOR).map((s) => s.trim()).filter((s) => s !== ''))];
      return ok(items.join(LIST_SEPARATOR));
    }
  }
}

/** How a stored value is written back to a cell (export): the inverse of parseCell. */
export function formatCell(spec: ColumnSpec, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (spec.type.kind) {
    case 'mhel':
      return value === true || value === 't' ? 'MH' : 'EL';
    case 'bool':
      return value === true || value === 't' ? 'true' : 'false';
    case 'decimal':
      return String(Number(value));
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
    default:
      return String(value);
  }
}

/** A refusal line as the upload response shows it: `file, row, column: reason`. */
export interface LoadError {
  file: string;
  /** 1-based; the header is row 1 (as a spreadsheet shows it). */
  row: number;
  column: string;
  reason: string;
}

export const errorLine = (e: LoadError) => `${e.file}, row ${e.row}, ${e.column}: ${e.reason}`;
