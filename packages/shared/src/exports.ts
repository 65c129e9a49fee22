/**
 * Module and cluster exports (part 1 §7 "Exports", part 2 "Export" and "PDF area"): the calls' query,
 * body and answers. The file itself is a download; everything else is JSON.
 */
import { z } from 'zod';
import { formatMonthId } from './months.js';
import { coercedInt4Id } from './numbers.js';
import { LIMITS } from './validation.js';

/** The formats of part 2 §7: one item, or the _massive variants for several. */
export const EXPORT_FORMATS = ['xls', 'xls_massive', 'xls/photo', 'xls/photo_massive', 'pdf', 'pdf_massive'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

export const isMassiveExport = (format: ExportFormat) => format.endsWith('_massive');
export const isPdfExport = (format: string) => format.startsWith('pdf');
export const isPhotoExport = (format: ExportFormat) => format.startsWith('xls/photo');

/** What an export call exports: `/data/export/{format}/{kind}` (part 2 §9 "types module and cluster"). */
const EXPORT_KINDS = ['module', 'cluster'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
/** The template type each kind's spreadsheets use (GET /api/templates/getByTemplatesType). */
export const EXPORT_TEMPLATE_TYPES = { module: 'modulo', cluster: 'cluster' } as const satisfies Record<ExportKind, string>;

export const EXPORT_CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

/** Spec texts (part 2 §9) and our own. */
export const EXPORT_TEXTS = {
  nothingToExport: "There aren't search results.",
  inProgress: 'The export is in progress',
  failed: 'Oops, Something Went Wrong',
} as const;

/** Where a finished export is downloaded (a plain link works: GET accepts the session cookie). */
export const exportFileUrl = (id: number) => `/data/export/files/${id}`;

const monthId = z.string().regex(/^M(0[1-9]|1[0-2])_\d{4}$/, 'Month ids look like M03_2027');
const booleanText = z.enum(['true', 'false']).transform((v) => v === 'true');

/** `?templateId=&status=&withPhoto=&userId=` of the export calls. */
export const exportQuerySchema = z.object({
  /** A template of the kind's type ('modulo' or 'cluster'): required for the spreadsheet formats, ignored for PDF. */
  templateId: coercedInt4Id().optional(),
  /** Published (default): only SUBMITTED items; Saved: the saved content whatever the status. */
  status: z.enum(['Published', 'Saved']).default('Published'),
  /** The photo formats imply it. */
  withPhoto: booleanText.optional(),
  /** Sent by the massive variants; informative only: an export is always recorded for the caller. */
  userId: z.string().max(100).optional(),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/**
 * How an item's export is narrowed (docs/exports.md "Narrowing"); an absent or empty list narrows nothing.
 * - `zones` (stars zones): a module is exported only if it is in one of them; a cluster keeps only its
 *   stores in those zones (by the store's country) and its modules in them.
 * - `customers` (stars customers): a module is exported only if a cluster holding it (same month) has a
 *   store of one of them; a cluster keeps only the stores of those customers.
 * - `legoMonth`: the LEGO badge the export search showed; the item is exported only while its month is
 *   (true) or is not (false) a LEGO month for its brand and collection.
 */
const narrowing = {
  zones: z.array(z.string().max(40)).max(200).optional(),
  customers: z.array(z.string().max(40)).max(5000).optional(),
  legoMonth: z.boolean().optional(),
};

/** One module to export, as the export search lists it. */
const moduleExportItemSchema = z.object({ moduleName: z.string().min(1).max(LIMITS.moduleName), monthId, ...narrowing });
export type ModuleExportItem = z.infer<typeof moduleExportItemSchema>;

/** One cluster to export: `clusterName` is the cluster's id (its name, as moduleName is a module's). */
const clusterExportItemSchema = z.object({ clusterName: z.string().min(1).max(LIMITS.clusterId), monthId, ...narrowing });
export type ClusterExportItem = z.infer<typeof clusterExportItemSchema>;

export const MAX_EXPORT_ITEMS = 500;
export const moduleExportRequestSchema = z.array(moduleExportItemSchema).min(1).max(MAX_EXPORT_ITEMS);
export const clusterExportRequestSchema = z.array(clusterExportItemSchema).min(1).max(MAX_EXPORT_ITEMS);

/** 202: the file is still being built; it appears in the export history (and the PDF area) when done. */
export const exportStartedSchema = z.object({ exportId: z.number(), jobId: z.number(), message: z.string() });
export type ExportStarted = z.infer<typeof exportStartedSchema>;

const exportStatusSchema = z.enum(['WIP', 'DONE', 'ERROR']);

/** An export as the PDF area lists it (part 2 §3 "Export item"). */
export const exportItemSchema = z.object({
  id: z.number(),
  date: z.string(),
  progress: z.number(),
  /** The download link once DONE, else null. */
  pdfUrl: z.string().nullable(),
  status: exportStatusSchema,
  exportType: z.string(),
  user: z.string(),
  /** Why it failed (status ERROR), else null. */
  message: z.string().nullable(),
  /** What it holds (our addition, issue 34): null for an export made before it was recorded. */
  itemKind: z.enum(EXPORT_KINDS).nullable(),
  itemCount: z.number().nullable(),
  /** The first EXPORT_NAMES_SHOWN items' names (module names, cluster ids), in the caller's order. */
  itemNames: z.array(z.string()),
  /** The items' months, in calendar order, without repeats. */
  monthIds: z.array(z.string()),
});
export type ExportItem = z.infer<typeof exportItemSchema>;
export const exportItemListSchema = z.array(exportItemSchema);

/** How many item names an export records and the histories show before "and N more". */
export const EXPORT_NAMES_SHOWN = 3;

type ExportSubject = Pick<ExportItem, 'itemKind' | 'itemCount' | 'itemNames' | 'monthIds'>;

/** "12 modules", "1 cluster", or '—' for an export made before what it holds was recorded. */
export function exportKindText(item: ExportSubject): string {
  if (!item.itemKind) return '—';
  const count = item.itemCount ?? item.itemNames.length;
  return `${count} ${item.itemKind}${count === 1 ? '' : 's'}`;
}

/** "MOD_A, MOD_B, MOD_C and 9 more" (the first names, then how many are not named), or '—'. */
export function exportItemsText(item: ExportSubject): string {
  if (item.itemNames.length === 0) return '—';
  const rest = (item.itemCount ?? item.itemNames.length) - item.itemNames.length;
  return rest > 0 ? `${item.itemNames.join(', ')} and ${rest} more` : item.itemNames.join(', ');
}

/** "01/2027", "01/2027, 02/2027", past three "01/2027 – 12/2027 (12 months)" (as people read months), or '—'. */
export function exportMonthsText(item: ExportSubject): string {
  const months = item.monthIds.map(formatMonthId);
  if (months.length === 0) return '—';
  return months.length <= 3 ? months.join(', ') : `${months[0]} – ${months.at(-1)} (${months.length} months)`;
}
