import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import { INT4_MAX } from '@bo/shared/numbers';
import { z } from 'zod';
import { UPLOAD_TEXTS, uploadAcceptedSchema, uploadApplySchema, uploadItemSchema, uploadListSchema, uploadPreviewSchema, uploadQuerySchema, uploadStateSchema } from '@bo/shared/uploads';
import { contextOf } from '../../plugins/context.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { fileLoaderRoutes } from './file-loader.routes.js';
import { formFileName } from './form-file-name.js';
import { acceptUpload, applyUpload, assertMayUpload, cancelUpload, tooLarge, uploadList, uploadPreview, uploadState, type UploadedFile, type UploadKind } from './uploads.service.js';

const FILE_FIELD = 'excelFile';

/**
 * The one file of a multipart request, in field `excelFile`, read into memory up to UPLOAD_MAX_MB
 * (413 past it). Anything else — not multipart, another field, a second file, a broken body — is 400.
 */
async function readExcelFile(request: FastifyRequest, maxBytes: number): Promise<UploadedFile> {
  if (!request.isMultipart()) throw badRequest(UPLOAD_TEXTS.noFile);
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 5, fields: 5, parts: 10, fieldSize: 1024, headerPairs: 100 } })) {
      if (part.type === 'field') throw badRequest(UPLOAD_TEXTS.unexpectedField(part.fieldname));
      if (part.fieldname !== FILE_FIELD || file) {
        part.file.resume();
        throw badRequest(file ? UPLOAD_TEXTS.oneFileOnly : UPLOAD_TEXTS.unexpectedField(part.fieldname));
      }
      file = { fileName: formFileName(part.filename, 'upload.xlsx'), content: await part.toBuffer() };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge({ config: request.server.config });
    throw badRequest(UPLOAD_TEXTS.noFile);
  }
  if (!file) throw badRequest(UPLOAD_TEXTS.noFile);
  return file;
}

const uploadDescription =
  'multipart/form-data with one file in the field excelFile (.xlsx). Checks the import right (403), that no upload of the caller is in progress (409), then the file (400, 413) before storing it; answers the upload (WIP) and its job (docs/IMPORTS.md). With ?preview=true the job only computes what the import would do (nothing written; the upload is then PREVIEW until POST /api/upload/:uploadId/apply or /cancel; docs/IMPORT-PREVIEW.md).';

const uploadIdParams = z.object({ uploadId: z.coerce.number().int().positive().max(INT4_MAX) });

/** Import Data (part 2 §2, §7 "Uploads"; docs/IMPORTS.md). */
export async function uploadRoutes(instance: FastifyInstance) {
  // Only these routes parse multipart bodies (the plugin is encapsulated in this one).
  await instance.register(multipart, { throwFileSizeLimit: true });
  // Upload Files and the release files (/data/fileLoader/…): its own child, for its error shape.
  await instance.register(fileLoaderRoutes);
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => contextOf(app, request);
  const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 409: errorResponseSchema, 413: errorResponseSchema };

  const uploadRoute = (kind: UploadKind, summary: string) =>
    app.post(
      `/api/upload/${kind}`,
      { schema: { tags: ['uploads'], summary, description: uploadDescription, querystring: uploadQuerySchema, response: { 200: uploadAcceptedSchema, ...errors } } },
      async (request) => {
        const c = ctx(request);
        // Rights and the WIP rule before the body is read: a refused caller does not get to send 20 MB.
        await assertMayUpload(c);
        const file = await readExcelFile(request, Math.floor(c.config.UPLOAD_MAX_MB * 1024 * 1024));
        return acceptUpload(c, kind, file, { preview: request.query.preview });
      },
    );
  uploadRoute('module', 'Import Module: a workbook of module compositions');
  uploadRoute('cluster', 'Import Cluster: a workbook of the modules of cluster-months');

  // The preview of Import Module and Import Cluster (docs/IMPORT-PREVIEW.md): its owner or an admin.
  const decided = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
  app.get(
    '/api/upload/:uploadId/preview',
    {
      schema: {
        tags: ['uploads'],
        summary: 'The preview of an upload sent with ?preview=true: what Apply would do per item-month (null while it is computed)',
        params: uploadIdParams,
        response: { 200: uploadPreviewSchema, ...decided },
      },
    },
    (request) => uploadPreview(ctx(request), request.params.uploadId),
  );
  app.post(
    '/api/upload/:uploadId/apply',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Imports the file of a preview (the import job), overriding the stale-version refusals of the item-months in overwrite',
        description:
          'Its owner or an admin (403). 409 when the preview is not ready, failed, expired, already applied or cancelled, or when an item it lists changed since; 400 for an overwrite key the preview does not list. Answers the upload (WIP) and its import job.',
        params: uploadIdParams,
        body: uploadApplySchema.nullish(),
        response: { 200: uploadAcceptedSchema, ...decided },
      },
    },
    (request) => applyUpload(ctx(request), request.params.uploadId, request.body ?? {}),
  );
  app.post(
    '/api/upload/:uploadId/cancel',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Drops a preview: nothing is imported (its owner or an admin; 409 once applied or cancelled)',
        params: uploadIdParams,
        response: { 200: uploadItemSchema, ...decided },
      },
    },
    (request) => cancelUpload(ctx(request), request.params.uploadId),
  );

  app.get('/api/uploadStatus/', { schema: { tags: ['uploads'], summary: 'The uploads: own, or everyone’s for an admin; newest first, at most 200', response: { 200: uploadListSchema } } }, (request) =>
    uploadList(ctx(request)),
  );
  app.get('/api/uploadStatus/getUploadStatus', { schema: { tags: ['uploads'], summary: 'The caller’s upload in progress, if any', response: { 200: uploadStateSchema } } }, (request) =>
    uploadState(ctx(request)),
  );
}
