/**
 * Import Data (docs/IMPORTS.md): accept a workbook — right, WIP rule, then every check that needs no
 * database (type by content, size, zip limits, columns, rows) before anything is stored — and store it
 * with its job in one transaction; list the uploads and the caller's upload in progress.
 */
import { canImportAny, isAdmin, sameUser } from '@bo/shared/permissions';
import { overwriteKey, UPLOAD_PREVIEW_TTL_MINUTES, UPLOAD_TEXTS, type UploadAccepted, type UploadApply, type UploadItem, type UploadPreview, type UploadState, type UploadType } from '@bo/shared/uploads';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { JobHandler, JobRunner } from '../../jobs/job-runner.js';
import { CLUSTER_IMPORT_FORMAT } from './cluster-import-file.js';
import { clusterImportEditType, clusterImportJob } from './cluster-import.job.js';
import { liveVersions } from './import.job.js';
import { moduleImportEditType } from './module-import-change.js';
import { missingColumns, readHeader, type ImportColumns } from './import-file.js';
import { MODULE_IMPORT_FORMAT } from './module-import-file.js';
import { moduleImportJob } from './module-import.job.js';
import { checkXlsx, XlsxRefused } from '../../lib/xlsx/xlsx-check.js';
import { decideUpload, insertUpload, listUploads, lockUserUploads, uploadItem, uploadWithPreview, wipUploadOf, type StoredUploadFile } from './uploads.repository.js';
import { fileLoaderJob } from './file-loader.job.js';
import { CLUSTER_IMPORT_JOB, MODULE_IMPORT_JOB, FILE_LOADER_JOB } from '../../jobs/job-kinds.js';

/** The most uploads the list answers. */
const UPLOAD_LIST_LIMIT = 200;

const MB = 1024 * 1024;

/** What each import type reads (its columns) and which job processes it (POST /api/upload/{kind}). */
const UPLOAD_KINDS = {
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
async function checkWorkbook(ctx: Pick<ServiceContext, 'config'>, file: UploadedFile, columns: ImportColumns<string>): Promise<void> {
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

/**
 * POST /api/upload/{module,cluster}: stores the checked workbook with its job (QUEUED) in one transaction.
 * With `preview`, the job computes the preview only (docs/IMPORT-PREVIEW.md): nothing is imported until Apply.
 */
export async function acceptUpload(ctx: ServiceContext, kind: UploadKind, file: UploadedFile, options: { preview?: boolean } = {}): Promise<UploadAccepted> {
  await assertMayUpload(ctx);
  const { type, jobKind, columns } = UPLOAD_KINDS[kind];
  await checkWorkbook(ctx, file, columns);
  return storeUpload(ctx, { type, jobKind, fileName: file.fileName, content: file.content, preview: options.preview === true });
}

/**
 * Stores a checked upload with its job (QUEUED) in one transaction: the WIP rule again under the
 * caller's advisory lock (two uploads sent at once do not both pass), the upload row (with its files,
 * for an upload of several), the audit. Every kind of upload goes through here.
 */
export async function storeUpload(
  ctx: ServiceContext,
  upload: { type: UploadType; jobKind: string; fileName: string; content: Buffer; files?: readonly StoredUploadFile[]; payload?: Record<string, unknown>; preview?: boolean },
): Promise<UploadAccepted> {
  const { type, jobKind, fileName, content, files = [], preview = false } = upload;
  const size = files.length ? files.reduce((sum, f) => sum + f.size, 0) : content.length;
  return ctx.db.transaction(async (tx) => {
    await lockUserUploads(tx, ctx.user.username);
    if (await wipUploadOf(tx, ctx.user.username)) throw conflict(UPLOAD_TEXTS.wipExists);
    const job = await ctx.jobs.enqueue(tx, jobKind, { ...upload.payload, uploadType: type, requestId: ctx.requestId, ...(preview ? { preview: true } : {}) }, ctx.user.username);
    const saved = await insertUpload(tx, { type, userId: ctx.user.username, fileName, size, content, jobId: job.id, ...(preview ? { previewJobId: job.id } : {}) }, files);
    await audit(tx, {
      username: ctx.user.username,
      action: 'upload',
      itemType: 'upload',
      itemKey: String(saved.id),
      requestId: ctx.requestId,
      summary: { type, fileName, size, jobId: job.id, ...(preview ? { preview: true } : {}) },
    });
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

/** The job kind of an import type (the preview and the import run the same job). */
const jobKindOf = (type: UploadType): string | null => Object.values(UPLOAD_KINDS).find((k) => k.type === type)?.jobKind ?? null;

type PreviewedUpload = NonNullable<Awaited<ReturnType<typeof uploadWithPreview>>>;

/** The upload, if the caller may decide on it (its owner or an admin): 404 when it does not exist, 403 when it is someone else's. */
async function ownUpload(ctx: ServiceContext, db: ServiceContext['db'], id: number, forUpdate = false): Promise<PreviewedUpload> {
  const upload = await uploadWithPreview(db, id, forUpdate);
  if (!upload) throw notFound(UPLOAD_TEXTS.noSuchUpload);
  if (!sameUser(upload.userId, ctx.user.username) && !isAdmin(ctx.user.grants)) throw forbidden(UPLOAD_TEXTS.notYourUpload);
  return upload;
}

/** Why a preview cannot be decided on any more (409), or null while it waits. Cancelling also takes one still being computed. */
function undecidable(upload: PreviewedUpload, forApply: boolean): string | null {
  if (upload.previewJobId === null) return UPLOAD_TEXTS.noPreview;
  if (upload.decision === 'APPLIED') return UPLOAD_TEXTS.alreadyApplied;
  if (upload.decision === 'CANCELLED') return UPLOAD_TEXTS.alreadyCancelled;
  if (!forApply) return null;
  if (upload.item.status === 'WIP') return UPLOAD_TEXTS.previewNotReady;
  if (upload.item.status === 'ERROR') return UPLOAD_TEXTS.previewFailedApply;
  if (upload.item.status === 'EXPIRED') return UPLOAD_TEXTS.previewExpired(UPLOAD_PREVIEW_TTL_MINUTES);
  return null;
}

/** GET /api/upload/:uploadId/preview: the upload and its preview (null while computed, failed, or decided on). */
export async function uploadPreview(ctx: ServiceContext, id: number): Promise<UploadPreview> {
  const upload = await ownUpload(ctx, ctx.db, id);
  // Upload Files' preview is its own (file-loader-apply.ts): its result is not an import's.
  if (upload.previewJobId === null || !jobKindOf(upload.type)) throw conflict(UPLOAD_TEXTS.noPreview);
  return { upload: upload.item, preview: upload.previewResult };
}

/**
 * The item-months of the preview that changed since it was computed: a version other than the one it
 * saw, or one it would have created that exists now. Applying them would not do what the preview listed.
 */
async function changedSincePreview(ctx: ServiceContext, type: UploadType, preview: NonNullable<PreviewedUpload['previewResult']>): Promise<string[]> {
  const lines = preview.lines.filter((l) => l.itemKey && l.monthId && (l.outcome !== 'failed' || l.version != null));
  const keys = lines.map((l) => ({ itemKey: l.itemKey, monthId: l.monthId }));
  const now = type === 'CLUSTER_MASSIVE_CREATION' ? await liveVersions(ctx.db, clusterImportEditType, keys) : await liveVersions(ctx.db, moduleImportEditType, keys);
  return lines.filter((l) => (now.get(overwriteKey(l.itemKey, l.monthId)) ?? null) !== (l.version ?? null)).map((l) => overwriteKey(l.itemKey, l.monthId));
}

/**
 * POST /api/upload/:uploadId/apply: imports the stored file of a preview (its owner, or an admin): the
 * import job queued with `overwrite`, the upload pointed at it, in one transaction under the owner's
 * upload lock, so a second Apply (or a Cancel) finds it decided (409). Refused (409) when the preview is
 * not ready, failed, expired, or when an item it listed changed since; (400) an overwrite key the preview
 * does not list. The import decides every item-month again with the rights of the caller at that time.
 */
export async function applyUpload(ctx: ServiceContext, id: number, body: UploadApply): Promise<UploadAccepted> {
  if (!canImportAny(ctx.user.grants)) throw forbidden(UPLOAD_TEXTS.noImportRight);
  const first = await ownUpload(ctx, ctx.db, id);
  const jobKind = jobKindOf(first.type);
  // Upload Files is applied by POST /data/fileLoader/{uploadId}/apply (file-loader-apply.ts).
  if (!jobKind) throw conflict(UPLOAD_TEXTS.noPreview);
  const refusal = undecidable(first, true);
  if (refusal) throw conflict(refusal);
  const preview = first.previewResult!;
  const listed = new Set(preview.lines.map((l) => overwriteKey(l.itemKey, l.monthId)));
  const overwrite = [...new Set(body.overwrite ?? [])];
  const unknown = overwrite.find((k) => !listed.has(k));
  if (unknown !== undefined) throw badRequest(UPLOAD_TEXTS.notInPreview(unknown), [{ path: 'body.overwrite', message: UPLOAD_TEXTS.notInPreview(unknown) }]);
  const changed = await changedSincePreview(ctx, first.type, preview);
  if (changed.length) throw conflict(UPLOAD_TEXTS.previewStale(changed));
  return ctx.db.transaction(async (tx) => {
    await lockUserUploads(tx, first.userId);
    const upload = await ownUpload(ctx, tx, id, true);
    const again = undecidable(upload, true);
    if (again) throw conflict(again);
    const job = await ctx.jobs.enqueue(tx, jobKind, { uploadType: upload.type, requestId: ctx.requestId, ...(overwrite.length ? { overwrite } : {}) }, ctx.user.username);
    await decideUpload(tx, id, 'APPLIED', job.id);
    await audit(tx, { username: ctx.user.username, action: 'uploadApply', itemType: 'upload', itemKey: String(id), requestId: ctx.requestId, summary: { jobId: job.id, previewJobId: upload.previewJobId, overwrite } });
    return { upload: (await uploadItem(tx, id))!, jobId: job.id };
  });
}

/** POST /api/upload/:uploadId/cancel: drops a preview (its owner, or an admin); nothing was written, nothing will be. 409 once decided. */
export async function cancelUpload(ctx: ServiceContext, id: number): Promise<UploadItem> {
  return ctx.db.transaction(async (tx) => {
    const first = await ownUpload(ctx, tx, id);
    await lockUserUploads(tx, first.userId);
    const upload = await ownUpload(ctx, tx, id, true);
    const refusal = undecidable(upload, false);
    if (refusal) throw conflict(refusal);
    await decideUpload(tx, id, 'CANCELLED');
    await audit(tx, { username: ctx.user.username, action: 'uploadCancel', itemType: 'upload', itemKey: String(id), requestId: ctx.requestId, summary: { previewJobId: upload.previewJobId } });
    return (await uploadItem(tx, id))!;
  });
}
