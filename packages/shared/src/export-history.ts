/**
 * The export history (part 2 §2 "Upload and export histories": Date, User name, Export, Status,
 * Progress, Action DOWNLOAD): every export of every format, as the PDF area lists its PDF ones.
 */
import { z } from 'zod';
import { exportItemSchema } from './exports.js';

/** At most this many exports are listed, newest first (the page pages them). */
export const EXPORT_HISTORY_LIMIT = 200;

/** An export item of part 2 §3 with the name of its file once built (`pdfUrl` is the download link of any format). */
const exportHistoryItemSchema = exportItemSchema.extend({
  fileName: z.string().nullable(),
});
export type ExportHistoryItem = z.infer<typeof exportHistoryItemSchema>;
export const exportHistoryListSchema = z.array(exportHistoryItemSchema);

/** The formats of part 2 §9 as the histories name them; an unknown one is shown as it is stored. */
const EXPORT_TYPE_LABELS: Readonly<Record<string, string>> = {
  xls: 'XLS',
  xls_massive: 'XLS (massive)',
  'xls/photo': 'XLS PHOTO',
  'xls/photo_massive': 'XLS PHOTO (massive)',
  pdf: 'PDF',
  pdf_massive: 'PDF (massive)',
};

export const exportTypeLabel = (exportType: string): string => EXPORT_TYPE_LABELS[exportType] ?? exportType;
