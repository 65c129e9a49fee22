/**
 * Import Data (docs/IMPORTS.md): accept a workbook — right, WIP rule, then every check that needs no
 * database (type by content, size, zip limits, columns, rows) before anything is stored — and store it
 * with its job in one transaction; list the uploads and the caller's upload in progress.
 */
import { canImportAny, isAdmin } from '@bo/shared/permissions';
import { UPLOAD_TEXTS, type UploadAccepted, type UploadItem, type UploadState, type UploadType } from '@bo/shared/uploads';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../lib/context.js';
import { AppError, badRequest, conflict, forbidden } from '../../lib/errors.js';
import type { JobHandler, JobRunner } from '../../jobs/job-runner.js';
import { CLUSTER_IMPORT_FORMAT } from './cluster-import-file.js';
import { CLUSTER_IMPORT_JOB, clusterImportJob } from './cluster-import.job.js';
import { missingColumns, readHeader, type ImportColumns } from './import-file.js';
import { MODULE_IMPORT_FORMAT } from './module-import-file.js';
import { MODULE_IMPORT_JOB, moduleImportJob } from './module-import.job.js';
import { checkXlsx, XlsxRefused } from './xlsx-check.js';
import { insertUpload, listUploads, lockUserUploads, wipUploadOf, type StoredUploadFile } from './uploads.repository.js';
import { FILE_LOADER_JOB, fileLoaderJob } from './file-loader.job.js';

/** The most uploads the list answers. */
export const UPLOAD_LIST_LIMIT = 200;

const MB = 1024 * 1024;

/** What each import type reads (its columns) and which job processes it (POST /api/upload/{kind}). */
export const UPLOAD_KINDS = {
  module: { type: 'MODULE_MASSIVE_CREATION', columns: MODULE_IMPORT_FORMAT, jobKind: MODULE_IMPORT_JOB, job: moduleImportJob },
  cluster: { type: 'CLUSTER_MASSIVE_CREATION', columns: CLUSTER_IMPORT_FORMAT, jobKind: CLUSTER_IMPORT_JOB, job: clusterImportJob },
} as const satisfies Record<
  string,
  { type: UploadType; columns: ImportColumns<string>; jobKind: string; job: (runner: Pick<JobRunner, 'enqueue'>, lockTtlMinutes: number) => JobHandler }
>;
export type UploadKind = keyof typeof UPLOAD_KINDS;

/** Registers the job of every import type on the runner, and Upload Files' (file-loader.job.ts). */
export function registerUploadJobs(jobs: JobRunner, lockTtlMinutes: number): void {
  for (const kind of Object.values(UPLOAD_KINDS)) jobs.register(kind.jobKind, kind.job(jobs, lockTtlMinutes));
  jobs.register(FILE_LOADER_JOB, fileLoaderJob());
}

export interface UploadedFile {
  fileName: string;
  content: Buffer;
}

export const tooLarge = (ctx: Pick<ServiceContext, 'config'>) => new AppError(413, 'payloadTooLarge', UPLOAD_TEXTS.tooLarge(ctx.config.UPLOAD_MAX_MB));

/** The checks before the file is read: the import right (403), no upload of the caller in progress (409). */
export async function assertMayUpload(ctx: ServiceContext): Promise<void> {
  if (!canImportAny(ctx.user.grants)) throw forbidden(UPLOAD_TEXTS.noImportRight);
  await assertNoUploadInProgress(ctx);
}

/** The WIP rule (409): the caller has no upload of any type in progress. */
export async function assertNoUploadInProgress(ctx: ServiceContext): Promise<void> {
  if (await wipUploadOf(ctx.db, ctx.user.username)) throw conflict(UPLOAD_TEXTS.wipExists);
}

/** Every check of the file that needs no database; throws 400/413 with the upload texts. */
export async function checkWorkbook(ctx: Pick<ServiceContext, 'config'>, file: UploadedFile, columns: ImportColumns<string>): Promise<void> {
  const { config } = ctx;
  if (file.content.length === 0) throw badRequest(UPLOAD_TEXTS.emptyFile);
  if (file.content.length > config.UPLOAD_MAX_MB * MB) throw tooLarge(ctx);
  if (!/\.xlsx$/i.test(file.fileName)) throw badRequest(UPLOAD_TEXTS.excelOnly);
  try {
    await checkXlsx(file.content, { maxExpandedBytes: config.UPLOAD_MAX_EXPANDED_MB * MB, maxRows: config.UPLOAD_MAX_ROWS });
  } catch (err) {
    if (!(err instanceof XlsxRefused)) throw err;
    if (err.reason === 'tooBigExpanded') throw badRequest(UPLOAD_TEXTS.tooBigExpanded(config.UPLOAD_MAX_EXPANDED_MB));
    if (err.reason === 'tooManyRows') throw badRequest(UPLOAD_TEXTS.tooManyRows(config.UPLOAD_MAX_ROWS));
    throw badRequest(UPLOAD_TEXTS.notExcel);
  }
  let header: Awaited<ReturnType<typeof readHeader>>;
  try {
    header = await readHeader(file.content, columns);
  } catch {
    // A zip that looks like a workbook but that ExcelJS cannot read.
    throw badRequest(UPLOAD_TEXTS.notExcel);
  }
  if (!header) throw badRequest(UPLOAD_TEXTS.noRows);
  const missing = missingColumns(columns, header.index);
  if (missing.length) throw badRequest(UPLOAD_TEXTS.missingColumns(missing));
  if (!header.hasData) throw badRequest(UPLOAD_TEXTS.noRows);
}

/** POST /api/upload/{module,cluster}: stores the checked workbook with its job (QUEUED) in one transaction. */
export async function acceptUpload(ctx: ServiceContext, kind: UploadKind, file: UploadedFile): Promise<UploadAccepted> {
  await assertMayUpload(ctx);
  const { type, jobKind, columns } = UPLOAD_KINDS[kind];
  await checkWorkbook(ctx, file, columns);
  return storeUpload(ctx, { type, jobKind, fileName: file.fileName, content: file.content });
}

/**
 * Stores a checked upload with its job (QUEUED) in one transaction: the WIP rule again under the
 * caller's advisory lock (two uploads sent at once do not both pass), the upload row (with its files,
 * for an upload of several), the audit. Every kind of upload goes through here.
 */
export async function storeUpload(
  ctx: ServiceContext,
  upload: { type: UploadType; jobKind: string; fileName: string; content: Buffer; files?: readonly StoredUploadFile[]; payload?: Record<string, unknown> },
): Promise<UploadAccepted> {
  const { type, jobKind, fileName, content, files = [] } = upload;
  const size = files.length ? files.reduce((sum, f) => sum + f.size, 0) : content.length;
  return ctx.db.transaction(async (tx) => {
    await lockUserUploads(tx, ctx.user.username);
    if (await wipUploadOf(tx, ctx.user.username)) throw conflict(UPLOAD_TEXTS.wipExists);
    const job = await ctx.jobs.enqueue(tx, jobKind, { ...upload.payload, uploadType: type, requestId: ctx.requestId }, ctx.user.username);
    const saved = await insertUpload(tx, { type, userId: ctx.user.username, fileName, size, content, jobId: job.id }, files);
    await audit(tx, { username: ctx.user.username, action: 'upload', itemType: 'upload', itemKey: String(saved.id), requestId: ctx.requestId, summary: { type, fileName, size, jobId: job.id } });
    return { upload: saved, jobId: job.id };
  });
}

/** GET /api/uploadStatus/: the caller's uploads (an admin's: everyone's), newest first. */
export async function uploadList(ctx: ServiceContext): Promise<UploadItem[]> {
  return listUploads(ctx.db, isAdmin(ctx.user.grants) ? null : ctx.user.username, UPLOAD_LIST_LIMIT);
}

/** GET /api/uploadStatus/getUploadStatus */
export async function uploadState(ctx: ServiceContext): Promise<UploadState> {
  const upload = await wipUploadOf(ctx.db, ctx.user.username);
  return { wip: upload !== null, upload };
}
