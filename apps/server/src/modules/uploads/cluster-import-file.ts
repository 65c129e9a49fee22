/**
 * Reads an Import Cluster workbook (docs/IMPORTS.md "Import Cluster"): the header row names the columns
 * (CLUSTER_IMPORT_COLUMNS), each following row is one module of one cluster-month, ADDED (the default)
 * or REMOVED, with an optional Description of the cluster (import-file.ts reads what every import has in
 * common: header, groups by (Cluster id, Month), row errors).
 */
import { CLUSTER_IMPORT_COLUMNS, CLUSTER_IMPORT_REQUIRED, CLUSTER_IMPORT_STATUSES, type ClusterImportColumn } from '@bo/shared/uploads';
import { LIMITS } from '@bo/shared/validation';
import { IMPORT_FILE_TEXTS, type ImportFormat, type ImportGroup, type ImportRow } from './import-file.js';

export interface ClusterImportLine {
  fileRow: number;
  /** The module's name or label, as the file gives it. */
  module: string;
  removed: boolean;
}

/** One cluster-month of the file (`itemKey`: the cluster's id or label, as the file gives it). */
export interface ClusterGroup extends ImportGroup<ClusterImportLine> {
  /** The group's first non-empty Description (null: keep the cluster's). */
  description: { fileRow: number; text: string } | null;
}


export const CLUSTER_IMPORT_FILE_TEXTS = {
  badStatus: (value: string) => `'${value}' is not ${CLUSTER_IMPORT_STATUSES.join(' or ')}`,
  descriptionTooLong: `the description can have at most ${LIMITS.description} characters`,
  otherDescription: (row: number) => `another description is on file row ${row}`,
  twice: (module: string, row: number) => `the module ${module} is already on file row ${row}`,
} as const;

/** The cluster-months of the workbook: the columns, then one module per row. */
export const CLUSTER_IMPORT_FORMAT: ImportFormat<ClusterImportColumn, ClusterGroup> = {
  titles: CLUSTER_IMPORT_COLUMNS,
  required: CLUSTER_IMPORT_REQUIRED,
  item: 'cluster',
  month: 'monthId',
  newGroup: (g) => ({ ...g, description: null }),
  readRow,
};

function readRow(row: ImportRow<ClusterImportColumn>, group: ClusterGroup) {
  const T = CLUSTER_IMPORT_FILE_TEXTS;
  const module = row.read('module');
  const statusText = row.read('status');
  const status = statusText?.toUpperCase() || 'ADDED';
  const description = row.read('description');
  if (!module && !row.errors.length) row.fail('module', IMPORT_FILE_TEXTS.empty);
  if (!(CLUSTER_IMPORT_STATUSES as readonly string[]).includes(status)) row.fail('status', T.badStatus(statusText ?? ''));
  if (description && description.length > LIMITS.description) row.fail('description', T.descriptionTooLong);
  else if (description && group.description && group.description.text !== description) row.fail('description', T.otherDescription(group.description.fileRow));
  const twice = module ? group.lines.find((l) => l.module.toLowerCase() === module.toLowerCase()) : undefined;
  if (twice) row.fail('module', T.twice(module!, twice.fileRow));
  if (row.errors.length) return;
  group.lines.push({ fileRow: row.number, module: module!, removed: status === 'REMOVED' });
  if (description && !group.description) group.description = { fileRow: row.number, text: description };
}
