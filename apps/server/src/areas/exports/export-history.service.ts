/**
 * The export history: the caller's exports of every format (an admin's: everybody's), newest first,
 * as the PDF area lists its PDF ones (exports.service.ts), each with its file's name once built.
 */
import { EXPORT_HISTORY_LIMIT, type ExportHistoryItem } from '@bo/shared/export-history';
import type { ServiceContext } from '../../plugins/context.js';
import { exportListItem, listedExports } from './exports.service.js';

export async function exportHistory(ctx: ServiceContext): Promise<ExportHistoryItem[]> {
  const rows = await listedExports(ctx, EXPORT_HISTORY_LIMIT, { pdfOnly: false });
  return rows.map((row) => {
    const item = exportListItem(row);
    return { ...item, fileName: item.status === 'DONE' ? row.fileName : null };
  });
}
