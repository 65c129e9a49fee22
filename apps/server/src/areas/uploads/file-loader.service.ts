/**
 * Upload Files (FILE_LOADER; part 2 §2, §7 "Uploads"; docs/IMPORTS.md "Upload Files"): the checks of
 * the four files and two fields before anything is stored, then the upload (one row, its four files in
 * upload_files) and its job through the uploads' storeUpload. Also the templates and a release's files.
 */
import type { Writable } from 'node:stream';
import { isAdmin } from '@bo/shared/permissions';
import { FILE_LOADER_ALL_FILES, FILE_LOADER_FILES, FILE_LOADER_OPTIONAL_FILES, FILE_LOADER_TEXTS, FILE_LOADER_TYPES, type FileLoaderAnyFile, type FileLoaderType, type UploadAccepted } from '@bo/shared/uploads';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { exportFileName, exportReleaseFile, templateCsv, templateXlsx } from './release-loader/release-export.js';
import { findRelease } from './release-loader/release-loader.repository.js';
import { type FileLoaderPayload } from './file-loader.job.js';
import { joinFileNames } from './form-file-name.js';
import { assertNoUploadInProgress, storeUpload } from './uploads.service.js';
import { FILE_LOADER_JOB } from '../../jobs/job-kinds.js';

/** What the multipart request carried (the route reads it; the service checks it). */
export interface FileLoaderRequest {
  /** Each file as the route spooled it to disk. */
  files: Partial<Record<FileLoaderAnyFile, { fileName: string; path: string; size: number }>>;
  fields: { releaseId?: string; type?: string; preview?: string };
}

/** Admin only (403), before anything else. */
export function assertFileLoaderAdmin(ctx: ServiceContext): void {
  if (!isAdmin(ctx.user.grants)) throw forbidden(FILE_LOADER_TEXTS.adminOnly);
}

/** The checks before the body is read: admin (403), no upload of the caller in progress (409). */
export async function assertMayLoadFiles(ctx: ServiceContext): Promise<void> {
  assertFileLoaderAdmin(ctx);
  await assertNoUploadInProgress(ctx);
}

const isLoadType = (type: string): type is FileLoaderType => (FILE_LOADER_TYPES as readonly string[]).includes(type);

/** Checks an existing, open release: 404 unknown, 400 closed. */
export async function assertOpenRelease(ctx: ServiceContext, releaseId: string): Promise<void> {
  const release = await findRelease(ctx.db, releaseId);
  if (!release) throw notFound(FILE_LOADER_TEXTS.releaseNotFound(releaseId), 'releaseNotFound');
  if (release.status === 'CLOSED') throw badRequest(FILE_LOADER_TEXTS.releaseClosed(releaseId), undefined, 'releaseClosed');
}

/**
 * POST /data/fileLoader/import: every check, then one upload (FILE_LOADER) with its four files (and the
 * Reference Data file when sent) and its job. With `preview=true` the job is a dry run (the whole load,
 * rolled back) and the upload waits in PREVIEW for Apply (POST /data/fileLoader/{uploadId}/apply) or Cancel.
 */
export async function acceptReleaseFiles(ctx: ServiceContext, request: FileLoaderRequest): Promise<UploadAccepted> {
  await assertMayLoadFiles(ctx);
  const files = FILE_LOADER_FILES.map((field) => {
    const file = request.files[field];
    if (!file) throw badRequest(FILE_LOADER_TEXTS.missingFile(field));
    return { field: field as FileLoaderAnyFile, ...file };
  });
  for (const field of FILE_LOADER_OPTIONAL_FILES) {
    const file = request.files[field];
    if (file) files.push({ field, ...file });
  }
  const previewField = request.fields.preview?.trim();
  if (previewField !== undefined && previewField !== 'true' && previewField !== 'false') throw badRequest(FILE_LOADER_TEXTS.badPreview);
  const preview = previewField === 'true';
  const releaseId = request.fields.releaseId?.trim();
  if (!releaseId) throw badRequest(FILE_LOADER_TEXTS.missingField('releaseId'));
  const type = request.fields.type?.trim();
  if (!type) throw badRequest(FILE_LOADER_TEXTS.missingField('type'));
  if (!isLoadType(type)) throw badRequest(FILE_LOADER_TEXTS.badType);
  for (const file of files) if (file.size === 0) throw badRequest(FILE_LOADER_TEXTS.emptyFile(file.fileName));
  await assertOpenRelease(ctx, releaseId);
  const payload: FileLoaderPayload = { releaseId, type, ...(preview ? { dryRun: true } : {}) };
  return storeUpload(ctx, {
    type: 'FILE_LOADER',
    jobKind: FILE_LOADER_JOB,
    fileName: joinFileNames(files.map((f) => f.fileName)),
    content: Buffer.alloc(0),
    files,
    payload: { ...payload },
    preview,
  });
}

const isFile = (file: string): file is FileLoaderAnyFile => (FILE_LOADER_ALL_FILES as readonly string[]).includes(file);

function fileKind(file: string): FileLoaderAnyFile {
  if (!isFile(file)) throw notFound(FILE_LOADER_TEXTS.unknownFile(file));
  return file;
}

export const CSV_TYPE = 'text/csv; charset=utf-8';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface ServedFile {
  fileName: string;
  contentType: string;
  content: Buffer | string;
}

/** GET /data/fileLoader/template/:file: the header row of a file, as CSV or xlsx. */
export async function releaseFileTemplate(ctx: ServiceContext, file: string, format: 'csv' | 'xlsx'): Promise<ServedFile> {
  assertFileLoaderAdmin(ctx);
  const kind = fileKind(file);
  return format === 'xlsx'
    ? { fileName: `${kind}-template.xlsx`, contentType: XLSX_TYPE, content: await templateXlsx(kind) }
    : { fileName: `${kind}-template.csv`, contentType: CSV_TYPE, content: templateCsv(kind) };
}

/**
 * GET /data/fileLoader/release/:releaseId/:file: checks (admin, file, release: 404) and answers the
 * file's name and a writer that streams it (CSV, in pages) into the response.
 */
export async function releaseFileDownload(ctx: ServiceContext, releaseId: string, file: string): Promise<{ fileName: string; write: (out: Writable) => Promise<number> }> {
  assertFileLoaderAdmin(ctx);
  const kind = fileKind(file);
  if (!(await findRelease(ctx.db, releaseId))) throw notFound(FILE_LOADER_TEXTS.releaseNotFound(releaseId), 'releaseNotFound');
  return { fileName: exportFileName(releaseId, kind), write: (out) => exportReleaseFile(ctx.db, releaseId, kind, out) };
}
