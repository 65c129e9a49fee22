/**
 * Reads an Import Cluster workbook (docs/IMPORTS.md "Import Cluster"): the header row names the columns
 * (CLUSTER_FILE_COLUMNS), and each following row is either
 * - one module of one cluster-month ('Module name'), ADDED (the default) or REMOVED ('Status'), or
 * - one cluster-month with all its ADDED modules in one cell ('Module names', comma-separated): the
 *   'Clusters' tab of every cluster export, whose 'Status' is the cluster's, not read;
 * with an optional Description, the Version the file was exported at, and what a cluster-month that does
 * not exist needs to be created (import-file.ts reads what every import has in common: header, groups by
 * (Cluster id, Month), row errors).
 */
import { CLUSTER_IMPORT_COLUMNS, CLUSTER_IMPORT_REQUIRED, CLUSTER_IMPORT_STATUSES } from '@bo/shared/uploads';
import { LIMITS } from '@bo/shared/validation';
import { IMPORT_FILE_TEXTS, type ImportFormat, type ImportGroup, type ImportRow } from './import-file.js';
import { VERSION_COLUMN_TITLE } from '../../db/product-data.js';
import { readVersion, type FileVersion } from './stale-version.js';

/**
 * The columns: the shared ones, the Version, the list of modules and the creation fields, with the
 * titles the cluster export writes (exports/cluster-xlsx.ts CLUSTER_COLUMNS).
 */
const CLUSTER_FILE_COLUMNS = {
  ...CLUSTER_IMPORT_COLUMNS,
  modules: 'Module names',
  version: VERSION_COLUMN_TITLE,
  clusterLabel: 'Cluster label',
  brandCode: 'Brand',
  collection: 'Collection',
  starZones: 'Stars zones',
  lias: 'LIAs',
  sapCodes: 'SAP codes',
} as const;
type ClusterFileColumn = keyof typeof CLUSTER_FILE_COLUMNS;

export interface ClusterImportLine {
  fileRow: number;
  /** The module's name or label, as the file gives it. */
  module: string;
  removed: boolean;
}

/** What a cluster-month that does not exist needs to be created (the cluster creation's own fields). */
interface ClusterCreationFields {
  clusterLabel: string;
  brandCode: string;
  collection: string;
  starZones: string[];
  lias: string[];
  sapCodes: string[];
}

/** One cluster-month of the file (`itemKey`: the cluster's id or label, as the file gives it). */
export interface ClusterGroup extends ImportGroup<ClusterImportLine> {
  /** The group's first non-empty Description (null: keep the cluster's). */
  description: { fileRow: number; text: string } | null;
  /** The cluster's version when the file was exported (null: not guarded). */
  fileVersion: FileVersion | null;
  /** From the first row that carries all of them (null: the cluster-month cannot be created). */
  create: ClusterCreationFields | null;
}

export const CLUSTER_IMPORT_FILE_TEXTS = {
  badStatus: (value: string) => `'${value}' is not ${CLUSTER_IMPORT_STATUSES.join(' or ')}`,
  descriptionTooLong: `the description can have at most ${LIMITS.description} characters`,
  otherDescription: (row: number) => `another description is on file row ${row}`,
  twice: (module: string, row: number) => `the module ${module} is already on file row ${row}`,
} as const;

/** A list cell: values separated by commas, semicolons or line breaks, blanks dropped, each once (a name given twice in one cell counts once). */
const listCell = (value: string | null): string[] => [...new Set((value ?? '').split(/[,;\n]+/).map((v) => v.trim()).filter(Boolean))];

/** The cluster-months of the workbook: the columns, then one module, or one cluster with its modules, per row. */
export const CLUSTER_IMPORT_FORMAT: ImportFormat<ClusterFileColumn, ClusterGroup> = {
  titles: CLUSTER_FILE_COLUMNS,
  required: CLUSTER_IMPORT_REQUIRED,
  standIns: { module: 'modules' },
  item: 'cluster',
  month: 'monthId',
  newGroup: (g) => ({ ...g, description: null, fileVersion: null, create: null }),
  readRow,
};

function readRow(row: ImportRow<ClusterFileColumn>, group: ClusterGroup) {
  const T = CLUSTER_IMPORT_FILE_TEXTS;
  const perModule = row.has('module');
  const found: ClusterImportLine[] = [];
  if (perModule) {
    const module = row.read('module');
    const statusText = row.read('status');
    const status = statusText?.toUpperCase() || 'ADDED';
    if (!module && !row.errors.length) row.fail('module', IMPORT_FILE_TEXTS.empty);
    if (!(CLUSTER_IMPORT_STATUSES as readonly string[]).includes(status)) row.fail('status', T.badStatus(statusText ?? ''));
    if (module) found.push({ fileRow: row.number, module, removed: status === 'REMOVED' });
  } else {
    // The export's list: an empty cell is a cluster without modules.
    for (const module of listCell(row.read('modules'))) found.push({ fileRow: row.number, module, removed: false });
  }
  const description = row.read('description');
  if (description && description.length > LIMITS.description) row.fail('description', T.descriptionTooLong);
  else if (description && group.description && group.description.text !== description) row.fail('description', T.otherDescription(group.description.fileRow));
  for (const line of found) {
    const twice = group.lines.find((l) => l.module.toLowerCase() === line.module.toLowerCase());
    if (twice) row.fail(perModule ? 'module' : 'modules', T.twice(line.module, twice.fileRow));
  }
  readVersion(row, 'version', group);
  if (row.errors.length) return;
  group.lines.push(...found);
  if (description && !group.description) group.description = { fileRow: row.number, text: description };
  if (!group.create) {
    const fields = {
      clusterLabel: row.read('clusterLabel'),
      brandCode: row.read('brandCode'),
      collection: row.read('collection'),
      starZones: listCell(row.read('starZones')),
      lias: listCell(row.read('lias')),
      sapCodes: listCell(row.read('sapCodes')),
    };
    const { clusterLabel, brandCode, collection } = fields;
    if (clusterLabel && brandCode && collection && fields.starZones.length && fields.lias.length && fields.sapCodes.length) group.create = { ...fields, clusterLabel, brandCode, collection };
  }
}
