/**
 * Apply of an Upload Files preview (docs/IMPORTS.md "Upload Files"): the stored files of the preview
 * upload are loaded for real — the upload's own files, never sent again — by a new job of the file loader
 * with the preview's release and type. The preview's state (PREVIEW, EXPIRED, CANCELLED, APPLIED) is the
 * uploads' preview machinery's (uploads.repository.ts uploadWithPreview / decideUpload); Cancel is its
 * POST /api/upload/{uploadId}/cancel.
 */
import { FILE_LOADER_TEXTS, UPLOAD_PREVIEW_TTL_MINUTES, UPLOAD_TEXTS, type UploadAccepted } from '@bo/shared/uploads';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { type FileLoaderPayload } from './file-loader.job.js';
import { jobPayload } from './file-loader.repository.js';
import { assertFileLoaderAdmin, assertOpenRelease } from './file-loader.service.js';
import { decideUpload, lockUserUploads, uploadItem, uploadWithPreview } from './uploads.repository.js';
import { FILE_LOADER_JOB } from '../../jobs/job-kinds.js';

type Previewed = NonNullable<Awaited<ReturnType<typeof uploadWithPreview>>>;

/** The refusal of an Apply on this upload, or null when its preview waits. */
function refusal(upload: Previewed | null, id: number): Error | null {
  if (!upload) return notFound(FILE_LOADER_TEXTS.applyNotFound(id));
  if (upload.type !== 'FILE_LOADER' || upload.previewJobId === null) return badRequest(FILE_LOADER_TEXTS.applyNotPreview);
  if (upload.decision === 'APPLIED') return conflict(FILE_LOADER_TEXTS.applyDone);
  if (upload.decision === 'CANCELLED') return conflict(UPLOAD_TEXTS.alreadyCancelled);
  switch (upload.item.status) {
    case 'PREVIEW':
      return null;
    case 'WIP':
      return conflict(UPLOAD_TEXTS.previewNotReady);
    case 'EXPIRED':
      return conflict(UPLOAD_TEXTS.previewExpired(UPLOAD_PREVIEW_TTL_MINUTES));
    default:
      // ERROR: the files were refused, there is nothing to apply.
      return conflict(UPLOAD_TEXTS.previewFailedApply);
  }
}

/** POST /data/fileLoader/{uploadId}/apply (admin): the real load of a preview's files, in one transaction under the owner's upload lock. */
export async function applyReleasePreview(ctx: ServiceContext, id: number): Promise<UploadAccepted> {
  assertFileLoaderAdmin(ctx);
  const first = await uploadWithPreview(ctx.db, id);
  const before = refusal(first, id);
  if (before) throw before;
  const { releaseId, type } = (await jobPayload(ctx.db, first!.previewJobId!)) as FileLoaderPayload;
  await assertOpenRelease(ctx, releaseId);
  return ctx.db.transaction(async (tx) => {
    await lockUserUploads(tx, first!.userId);
    const upload = await uploadWithPreview(tx, id, true);
    const again = refusal(upload, id);
    if (again) throw again;
    const payload: FileLoaderPayload = { releaseId, type, appliedFrom: id };
    const job = await ctx.jobs.enqueue(tx, FILE_LOADER_JOB, { ...payload, uploadType: 'FILE_LOADER', requestId: ctx.requestId }, ctx.user.username);
    await decideUpload(tx, id, 'APPLIED', job.id);
    await audit(tx, { username: ctx.user.username, action: 'uploadApply', itemType: 'upload', itemKey: String(id), requestId: ctx.requestId, summary: { jobId: job.id, previewJobId: upload!.previewJobId } });
    return { upload: (await uploadItem(tx, id))!, jobId: job.id };
  });
}
