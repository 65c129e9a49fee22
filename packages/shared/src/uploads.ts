/**
 * Import Data (part 2 §2 "Import Data (/upload)", §3 "Upload item", §4 "Upload", §5, §7 "Uploads", §8):
 * the upload list, the upload state and the texts, for the page and the server alike (docs/IMPORTS.md).
 */
import { z } from 'zod';
import { itemKeyString } from './item-keys.js';

const UPLOAD_TYPES = ['MODULE_MASSIVE_CREATION', 'CLUSTER_MASSIVE_CREATION', 'FILE_LOADER'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** How the upload table names a type (part 2 §3). */
export const UPLOAD_TYPE_LABELS: Record<UploadType, string> = {
  MODULE_MASSIVE_CREATION: 'Module',
  CLUSTER_MASSIVE_CREATION: 'Cluster',
  FILE_LOADER: 'Release files',
};

/**
 * WIP while in progress, then DONE or ERROR. An upload sent with a preview (docs/IMPORT-PREVIEW.md) is WIP
 * while its preview is computed, then PREVIEW until its owner applies it (then WIP, DONE or ERROR as any
 * import) or cancels it (CANCELLED); a preview nobody decided on within UPLOAD_PREVIEW_TTL_MINUTES is EXPIRED.
 */
const uploadStatusSchema = z.enum(['WIP', 'DONE', 'ERROR', 'PREVIEW', 'CANCELLED', 'EXPIRED']);
export type UploadStatus = z.infer<typeof uploadStatusSchema>;

/** How long a preview waits for Apply or Cancel: past it, it no longer holds the WIP rule and cannot be applied. */
export const UPLOAD_PREVIEW_TTL_MINUTES = 60;

/** One upload as the list shows it (part 2 §3 "Upload item"). */
export const uploadItemSchema = z.object({
  id: z.number(),
  insertTime: z.string(),
  /** 0–100 */
  progress: z.number(),
  /** ';'-separated lines; null while nothing was answered yet. */
  response: z.string().nullable(),
  status: uploadStatusSchema,
  type: z.enum(UPLOAD_TYPES),
  userId: z.string(),
  fileName: z.string(),
  /** Bytes of the uploaded file(s). */
  size: z.number(),
});
export type UploadItem = z.infer<typeof uploadItemSchema>;
/** What the answers about one upload start from: the upload row. */
const aboutUploadSchema = z.object({ upload: uploadItemSchema });

/** GET /api/uploadStatus/: the uploads the caller may see (their own; an admin's: everyone's), newest first. */
export const uploadListSchema = z.array(uploadItemSchema);

/** GET /api/uploadStatus/getUploadStatus: whether the caller has an upload in progress (the import areas are disabled then). */
export const uploadStateSchema = z.object({
  wip: z.boolean(),
  upload: uploadItemSchema.nullable(),
});
export type UploadState = z.infer<typeof uploadStateSchema>;

/** POST /api/upload/{module,cluster}?preview=true: compute the preview first (docs/IMPORT-PREVIEW.md). */
export const uploadQuerySchema = z.object({
  preview: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

/** POST /api/upload/:uploadId/apply: the item-months (`${name}|${monthId}`) whose stale-version refusal the planner overrides. */
export const uploadApplySchema = z.object({
  overwrite: z.array(z.string().min(1).max(300)).max(20_000).optional(),
});
export type UploadApply = z.infer<typeof uploadApplySchema>;

/** The key of an item-month in `overwrite` and in a preview line. */
export const overwriteKey = (itemKey: string, monthId: string): string => itemKeyString({ itemKey, monthId });

/** The answer of an accepted upload: the upload row (WIP) and the job that processes it. */
export const uploadAcceptedSchema = aboutUploadSchema.extend({ jobId: z.number() });
export type UploadAccepted = z.infer<typeof uploadAcceptedSchema>;

export const UPLOAD_TEXTS = {
  importModule: 'Import Module',
  importCluster: 'Import Cluster',
  excelOnly: 'Only Excel files (.xlsx) can be imported.',
  emptyFile: 'The file is empty.',
  notExcel: 'The file is not an Excel workbook (.xlsx): it cannot be read.',
  tooLarge: (maxMb: number) => `The file is larger than ${maxMb} MB.`,
  tooBigExpanded: (maxMb: number) => `The workbook expands to more than ${maxMb} MB: split it into smaller files.`,
  tooManyRows: (max: number) => `The workbook has more than ${max} rows: split it into smaller files.`,
  missingColumns: (columns: readonly string[]) => `Missing column(s): ${columns.join(', ')}`,
  noRows: 'The workbook has no rows to import.',
  wipExists: 'An import is still in progress: wait until it ends before starting another one.',
  noImportRight: "You don't have the right to import.",
  genericError: 'Oops, Something Went Wrong',
  noFile: 'Send the workbook as a file in the field excelFile.',
  unexpectedField: (name: string) => `Unexpected field ${name}: send only the workbook, in the field excelFile.`,
  oneFileOnly: 'Send one workbook at a time.',
  // The preview (docs/IMPORT-PREVIEW.md).
  previewTitle: (kind: string) => (kind ? `${kind} import preview` : 'Import preview'),
  previewComputing: 'Reading the file and checking every item: nothing is written yet…',
  previewIntro: 'Nothing has been written yet. Apply imports the file as listed below; Cancel drops it.',
  previewCounts: (c: { created: number; saved: number; unchanged: number; failed: number }) =>
    `${c.created} to create · ${c.saved} to change · ${c.unchanged} unchanged · ${c.failed} refused`,
  previewOutcomes: { created: 'Will be created', saved: 'Will change', unchanged: 'Unchanged', failed: 'Refused' } as Record<ImportOutcome, string>,
  previewLineCreated: (text: string) => `will be ${text}`,
  previewLineSaved: (changes: string) => `will change (${changes})`,
  previewOverwrite: 'Overwrite',
  previewOverwriteLabel: (item: string) => `Overwrite ${item} although it changed since the file was exported`,
  previewApply: 'Apply',
  previewCancel: 'Cancel',
  previewClose: 'Close',
  previewApplied: (fileName: string) => `${fileName}: the import is in progress.`,
  previewCancelled: (fileName: string) => `${fileName}: the import was cancelled, nothing was written.`,
  previewFailed: 'The preview could not be computed: see the response in the upload history.',
  noSuchUpload: 'No such upload.',
  notYourUpload: 'This upload belongs to another user.',
  noPreview: 'This upload has no preview to apply or cancel.',
  previewNotReady: 'The preview is still being computed: wait until it is shown.',
  previewFailedApply: 'The preview of this upload failed: nothing can be applied.',
  alreadyApplied: 'This upload has already been applied.',
  alreadyCancelled: 'This upload has been cancelled.',
  previewExpired: (minutes: number) => `This preview is more than ${minutes} minutes old: upload the file again to see what it would do now.`,
  previewStale: (items: readonly string[]) =>
    `These items changed since the preview: ${items.slice(0, 10).join(', ')}${items.length > 10 ? ` and ${items.length - 10} more` : ''}. Cancel, then upload the file again to see what it would do now.`,
  notInPreview: (key: string) => `${key} is not an item-month of this preview.`,
} as const;

/**
 * Import Module (MODULE_MASSIVE_CREATION): the columns of the workbook, by their title in the header
 * row (case-insensitive, any order, other columns ignored). The titles are those Export Module XLS
 * writes, so an exported workbook imports back (docs/IMPORTS.md).
 */
export const MODULE_IMPORT_COLUMNS = {
  moduleName: 'Module name',
  monthId: 'Month',
  upc: 'UPC',
  mustHave: 'MH/EL',
  minValue: 'Min value',
  moduleLabel: 'Module label',
  macroFamily: 'Macro family',
  brand: 'Brand',
  collection: 'Collection',
  starsZones: 'Stars zones',
} as const;
type ModuleImportColumn = keyof typeof MODULE_IMPORT_COLUMNS;
/** Without these the workbook is refused (400 missingColumns). */
export const MODULE_IMPORT_REQUIRED: readonly ModuleImportColumn[] = ['moduleName', 'monthId', 'upc', 'mustHave'];

/** What an import did with one item-month (one line of the response). */
const importOutcomeSchema = z.enum(['created', 'saved', 'unchanged', 'failed']);
export type ImportOutcome = z.infer<typeof importOutcomeSchema>;

/** The `result` of an import job (GET /api/jobs/:id); the upload's response is its lines' messages, ';'-separated. */
const importResultSchema = z.object({
  counts: z.object({ created: z.number(), saved: z.number(), unchanged: z.number(), failed: z.number() }),
  lines: z.array(
    z.object({
      itemKey: z.string(),
      monthId: z.string(),
      outcome: importOutcomeSchema,
      changes: z.array(z.string()),
      reason: z.string().nullable(),
      message: z.string(),
      /** A preview's: the item-month's version it was computed on (null: it does not exist). */
      version: z.number().nullable().optional(),
      /** A preview's: the refusal is the stale-version guard's, which Apply may override (overwrite). */
      overwritable: z.boolean().optional(),
    }),
  ),
  /** True for a preview (nothing was written; 'created' and 'saved' are what Apply would do). */
  preview: z.boolean().optional(),
});
export type ImportResult = z.infer<typeof importResultSchema>;
export type ImportLine = ImportResult['lines'][number];

/** GET /api/upload/:uploadId/preview: the upload and its preview (null while it is computed, or when it failed). */
export const uploadPreviewSchema = aboutUploadSchema.extend({ preview: importResultSchema.nullable() });
export type UploadPreview = z.infer<typeof uploadPreviewSchema>;

/**
 * Import Cluster (CLUSTER_MASSIVE_CREATION): the columns of the workbook, one row per (cluster, month,
 * module), by their title in the header row (case-insensitive, any order, other columns ignored). The
 * cluster cell holds its id or its label, the module cell its name or its label (docs/IMPORTS.md).
 */
export const CLUSTER_IMPORT_COLUMNS = {
  cluster: 'Cluster id',
  monthId: 'Month',
  module: 'Module name',
  status: 'Status',
  description: 'Description',
} as const;
type ClusterImportColumn = keyof typeof CLUSTER_IMPORT_COLUMNS;
/** Without these the workbook is refused (400 missingColumns). */
export const CLUSTER_IMPORT_REQUIRED: readonly ClusterImportColumn[] = ['cluster', 'monthId', 'module'];
/** The Status cell: empty is ADDED. */
export const CLUSTER_IMPORT_STATUSES = ['ADDED', 'REMOVED'] as const;

/**
 * Upload Files (/uploadTwo, FILE_LOADER; part 2 §2, §7 "Uploads", §8; docs/IMPORTS.md "Upload Files"):
 * four files and two fields of one multipart request to `POST /data/fileLoader/import`.
 */
export const FILE_LOADER_FILES = ['module', 'cluster', 'registry', 'segment'] as const;
type FileLoaderFile = (typeof FILE_LOADER_FILES)[number];
/** The optional fifth file: Reference Data (docs/RELEASE-FILES.md "Reference Data"), loaded before the four. */
export const FILE_LOADER_OPTIONAL_FILES = ['reference'] as const;
/** Every file of Upload Files, in the order the page shows them. */
export const FILE_LOADER_ALL_FILES = [...FILE_LOADER_FILES, ...FILE_LOADER_OPTIONAL_FILES] as const;
export type FileLoaderAnyFile = (typeof FILE_LOADER_ALL_FILES)[number];
/** The page's names of the files. */
export const FILE_LOADER_FILE_LABELS: Record<FileLoaderAnyFile, string> = {
  reference: 'Reference Data',
  module: 'Module Composition',
  cluster: 'Cluster Composition',
  registry: 'Sku Registry',
  segment: 'Customer Segmentation',
};
export const FILE_LOADER_TYPES = ['massive', 'delta'] as const;
export type FileLoaderType = (typeof FILE_LOADER_TYPES)[number];
/** `GET /data/fileLoader/template/:file?format=` */
export const FILE_LOADER_TEMPLATE_FORMATS = ['csv', 'xlsx'] as const;

/** A refused call of the file loader: the page reads `status` and `message` ('Request rejected with status {status} Msg: {message}'). */
export const fileLoaderErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  status: z.number(),
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const FILE_LOADER_TEXTS = {
  /** Success of the upload call (part 2 §8), and the first line of a loaded upload's response. */
  uploaded: 'The files have been uploaded',
  rejected: (status: number, message: string) => `Request rejected with status ${status} Msg: ${message}`,
  adminOnly: 'Only administrators may upload the release files.',
  notMultipart: 'Send the four files and the fields releaseId and type as multipart/form-data.',
  missingFile: (file: FileLoaderFile) => `The ${FILE_LOADER_FILE_LABELS[file]} file is missing (field ${file}).`,
  missingField: (field: 'releaseId' | 'type') => `The field ${field} is missing.`,
  badType: 'The type must be massive or delta.',
  unexpectedField: (name: string) => `Unexpected field ${name}: send module, cluster, registry, segment, reference (optional), releaseId, type and preview (optional).`,
  badPreview: 'The field preview must be true or false.',
  repeatedField: (name: string) => `The field ${name} is sent twice.`,
  emptyFile: (fileName: string) => `The file ${fileName} is empty.`,
  tooLarge: (maxMb: number) => `A file is larger than ${maxMb} MB.`,
  releaseNotFound: (releaseId: string) => `The release ${releaseId} does not exist`,
  releaseClosed: (releaseId: string) => `The release ${releaseId} is closed`,
  unknownFile: (file: string) => `Unknown file ${file}: module, cluster, registry, segment or reference.`,
  /** The first line of a preview's response: nothing was loaded (docs/IMPORTS.md "Upload Files"). */
  previewed: 'Preview: nothing was loaded. Apply loads these files as listed',
  applyNotFound: (uploadId: number) => `The upload ${uploadId} does not exist`,
  applyNotPreview: 'This upload is not a finished preview of Upload Files: only a preview that went through can be applied.',
  applyDone: 'This preview has already been applied.',
  /** The first line of a refused load's response (the job is FAILED, the upload ERROR). */
  refused: (errorCount: number) => `The files were refused: ${errorCount} error(s), nothing was loaded`,
  moreErrors: (n: number) => `and ${n} more`,
} as const;
