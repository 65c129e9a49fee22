/**
 * The pure rules of the Import Data page (part 2 §2 "Import Data (/upload)", §8 upload texts): which
 * files an area takes, how a file's size reads, and what a failed upload says.
 */
import { UPLOAD_TEXTS, type UploadItem, type UploadState } from '@bo/shared/uploads';
import { ApiError } from '../../../lib/api-error';
import { formatNumber } from '../../../lib/format';

/** What the file picker offers: .xlsx only (the server checks the content again). */
export const XLSX_ACCEPT = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Whether a chosen or dropped file may be sent: its name ends in .xlsx. The name is what a planner sees
 * and what the picker filters on; browsers give no MIME type for many dropped files, so it is not used.
 */
export const isXlsxFile = (file: Pick<File, 'name'>): boolean => /\.xlsx$/i.test(file.name.trim());

/** '840 B', '12,4 KB', '3,2 MB' (Italian decimals, like every number of the back office). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${formatNumber(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, 1)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), 1)} MB`;
}

/** A ';'-separated server text as lines: trimmed, empty parts dropped (part 2 §2 "the response popup"). */
export const textLines = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(';')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * What the Error popup of a failed upload shows (part 2 §8 "Uploads: generic popup shows the error
 * message or 'Oops, Something Went Wrong'"): a refusal the server explains (4xx: bad file, no right, an
 * import in progress, too large) shows its message one line per ';' part; a server failure, no answer
 * or anything else gets the generic text, never a raw server or browser text.
 */
export function uploadFailureLines(error: unknown): string[] {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    const lines = textLines(error.message);
    if (lines.length > 0) return lines;
  }
  return [UPLOAD_TEXTS.genericError];
}


/** What the page reads every 5 seconds: the list and the caller's state, together. */
export interface UploadsView {
  list: UploadItem[];
  state: UploadState;
}

/**
 * The caller's import in progress: the state says so, or the list shows one of theirs as WIP (or a
 * preview waiting for Apply or Cancel, which holds the WIP rule: docs/IMPORT-PREVIEW.md). The two
 * are read together, but a job may end between the two answers; the areas open only when both agree.
 */
export function importInProgress(view: UploadsView, username: string | undefined): UploadState {
  if (view.state.wip) return view.state;
  const listed = view.list.find((u) => (u.status === 'WIP' || u.status === 'PREVIEW') && u.userId === username);
  return listed ? { wip: true, upload: listed } : view.state;
}

/** The view once the server accepted an upload: the new upload on top (WIP) and the state WIP, until the next read. */
export function acceptedInto(view: UploadsView | undefined, upload: UploadItem): UploadsView {
  return { list: [upload, ...(view?.list ?? []).filter((u) => u.id !== upload.id)], state: { wip: true, upload } };
}
