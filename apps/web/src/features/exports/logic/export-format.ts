import type { ExportFormat } from '@bo/shared/exports';

/** What the popup says when the server answers 202 (the file takes longer than the call waits). */
export const EXPORT_POPUP_TEXTS = {
  startedTitle: 'The export is in progress',
  started: 'The file is being built: it will appear in the export history when it is ready. Keep this popup open to download it here, or close it.',
  startedPdf: 'The file is being built: it will appear in the PDF FILES area and the export history when it is ready. Keep this popup open to download it here, or close it.',
} as const;

/** The export popup's choices (part 2 §5 "Export") and the call each one makes. */
export type ExportChoice = 'XLS' | 'XLS PHOTO' | 'PDF';
export const EXPORT_CHOICES: readonly ExportChoice[] = ['XLS', 'XLS PHOTO', 'PDF'];

/**
 * The format path of `POST /data/export/{format}/{type}`: xls, xls/photo or pdf for one item, the
 * `_massive` variants for several (part 2 §9).
 */
export function exportFormat(choice: ExportChoice, itemCount: number): ExportFormat {
  const base = choice === 'XLS' ? 'xls' : choice === 'XLS PHOTO' ? 'xls/photo' : 'pdf';
  return itemCount > 1 ? `${base}_massive` : base;
}

/** EXPORT is enabled once a template is chosen, or when PDF (which has none) is picked. */
export const canStartExport = (choice: ExportChoice | null, templateId: number | null) => choice === 'PDF' || (choice !== null && templateId !== null);

/** The file name of a `content-disposition` header (RFC 6266: filename* first), or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // a malformed escape: use the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  return (plain?.[1] ?? plain?.[2])?.trim() || fallback;
}
