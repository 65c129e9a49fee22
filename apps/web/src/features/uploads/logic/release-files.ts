/**
 * The pure rules of Upload Files (/uploadTwo; part 2 §2 "Upload Files", §3 "Upload-files form fields",
 * §5, §8): the four files, which names a file input takes, when 'Upload Files' is enabled and what a
 * refused upload says. The file formats: docs/RELEASE-FILES.md.
 */
import {
  FILE_LOADER_ALL_FILES,
  FILE_LOADER_FILE_LABELS,
  FILE_LOADER_FILES,
  FILE_LOADER_OPTIONAL_FILES,
  type FILE_LOADER_TEMPLATE_FORMATS,
  FILE_LOADER_TEXTS,
  type FileLoaderAnyFile,
  type FileLoaderType,
  type UploadItem,
  UPLOAD_TEXTS,
} from '@bo/shared/uploads';
import { ApiError } from '../../../lib/api-error';

/** The four required form fields (part 2 §3), the optional Reference Data, all of them in page order, and their labels. */
export const RELEASE_FILE_FIELDS = FILE_LOADER_FILES;
export const OPTIONAL_RELEASE_FILE_FIELDS: readonly ReleaseFileField[] = FILE_LOADER_OPTIONAL_FILES;
export const ALL_RELEASE_FILE_FIELDS = FILE_LOADER_ALL_FILES;
export type ReleaseFileField = FileLoaderAnyFile;
export const RELEASE_FILE_LABELS = FILE_LOADER_FILE_LABELS;
export const isOptionalReleaseFile = (field: ReleaseFileField): boolean => OPTIONAL_RELEASE_FILE_FIELDS.includes(field);

/** The upload types (part 2 §9). */
export type ReleaseUploadType = FileLoaderType;

/** Template formats the server offers (GET /data/fileLoader/template/:file?format=). */
export type TemplateFormat = (typeof FILE_LOADER_TEMPLATE_FORMATS)[number];

export const UPLOAD_FILES_TEXTS = {
  success: FILE_LOADER_TEXTS.uploaded,
  previewing: 'Checking the files: the whole load runs and is rolled back, nothing is written yet…',
  previewTitle: 'What the load would do',
  previewIntro: 'Nothing has been loaded yet. Apply loads these files as listed (they are not sent again); Cancel drops them.',
  refusedTitle: 'The files were refused',
  applied: 'The files are being loaded: follow the upload in the table below.',
  cancelled: 'Cancelled: nothing was loaded.',
  csvOrXlsx: 'Only .csv or .xlsx files can be uploaded.',
  rejected: FILE_LOADER_TEXTS.rejected,
} as const;

/** What each file input offers: .csv or .xlsx (the server tells them apart by content). */
export const RELEASE_FILE_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Whether a chosen file may go in a file input: its name ends in .csv or .xlsx (any case). */
export const isReleaseFileName = (file: Pick<File, 'name'>): boolean => /\.(csv|xlsx)$/i.test(file.name.trim());

export type ChosenFiles = Partial<Record<ReleaseFileField, File | null>>;

interface UploadFilesInput {
  releaseId: string | null;
  files: ChosenFiles;
  /** The caller has an upload in progress (the shared upload state). */
  wip: boolean;
  /** The state is still being read, or the files are being sent. */
  busy: boolean;
}

/** The fields still missing, in page order: the release first, then the files by their label. */
export function missingForUpload({ releaseId, files }: Pick<UploadFilesInput, 'releaseId' | 'files'>): string[] {
  const missing: string[] = [];
  if (!releaseId) missing.push('a release');
  for (const field of RELEASE_FILE_FIELDS) if (!files[field]) missing.push(RELEASE_FILE_LABELS[field]);
  return missing;
}

/**
 * What the page shows of the upload it sent (`uploadId`), read from the upload list: its preview being
 * computed (WIP), the preview waiting for Apply or Cancel (PREVIEW, its response's lines), the refusal
 * (ERROR), or nothing once decided (applied, cancelled, expired) or gone.
 */
type PreviewView =
  | { state: 'computing'; progress: number }
  | { state: 'ready'; lines: string[] }
  | { state: 'refused'; lines: string[] }
  | { state: 'none' };

export function previewView(uploads: readonly UploadItem[] | undefined, uploadId: number | null): PreviewView {
  const upload = uploadId === null ? undefined : uploads?.find((u) => u.id === uploadId);
  if (!upload) return { state: 'none' };
  const lines = (upload.response ?? '')
    .split(';')
    .map((l) => l.trim())
    .filter(Boolean);
  switch (upload.status) {
    case 'WIP':
      return { state: 'computing', progress: upload.progress };
    case 'PREVIEW':
      return { state: 'ready', lines };
    case 'ERROR':
      return { state: 'refused', lines };
    default:
      return { state: 'none' };
  }
}

/**
 * 'Upload Files' is enabled only with a release and all four files (part 2 §5), and never while an
 * upload of the caller is WIP (import areas are disabled then) or while sending / reading the state.
 */
export function canUploadFiles(input: UploadFilesInput): boolean {
  return !input.wip && !input.busy && missingForUpload(input).length === 0;
}

/**
 * The Error popup text of a refused upload (part 2 §7 "on a non-ok answer the JSON with status and
 * message is read", §8 'Request rejected with status {status} Msg: {message}'). The server's refusal
 * lines (`file, row, column: reason`) are ';'-separated and shown one per line after the first.
 * No answer at all has no status: the generic upload text.
 */
export function uploadFilesFailureLines(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.status === 0) return [UPLOAD_TEXTS.genericError];
  const parts = error.message
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  // A body without JSON already reads 'Request rejected with status N' (the API client's text).
  if (parts.length === 1 && parts[0]!.startsWith(`Request rejected with status ${error.status}`)) return parts;
  const [first = '', ...rest] = parts;
  return [UPLOAD_FILES_TEXTS.rejected(error.status, first), ...rest];
}

/** Releases by releaseId (part 2 §7 "GET release list sorted by releaseId"). */
export function sortByReleaseId<T extends { releaseId: string }>(releases: readonly T[]): T[] {
  return [...releases].sort((a, b) => a.releaseId.localeCompare(b.releaseId, 'en', { numeric: true }));
}

/** The file name of a `content-disposition` header (filename* first), or the fallback. */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || fallback;
}
