import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INT4_MAX } from '@bo/shared/numbers';
import { FILE_LOADER_ALL_FILES, FILE_LOADER_TEMPLATE_FORMATS, FILE_LOADER_TEXTS, fileLoaderErrorSchema, uploadAcceptedSchema, type FileLoaderAnyFile } from '@bo/shared/uploads';
import { contextOf } from '../../plugins/context.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { makeSpoolDir } from '../../lib/spool.js';
import { contentDisposition } from '../../lib/content-disposition.js';
import { acceptReleaseFiles, assertMayLoadFiles, CSV_TYPE, releaseFileDownload, releaseFileTemplate, type FileLoaderRequest } from './file-loader.service.js';
import { applyReleasePreview } from './file-loader-apply.js';
import { formFileName } from './form-file-name.js';

const FIELDS = ['releaseId', 'type', 'preview'] as const;
const isFileField = (name: string): name is FileLoaderAnyFile => (FILE_LOADER_ALL_FILES as readonly string[]).includes(name);
const isPlainField = (name: string): name is (typeof FIELDS)[number] => (FIELDS as readonly string[]).includes(name);

/**
 * The files (fields module, cluster, registry, segment; reference, optional) and the fields releaseId, type and preview of a
 * multipart request, each file spooled to a file in `dir` as it arrives (never whole in memory) up to
 * RELEASE_FILE_MAX_MB (400 past it, as every refusal of this call: the page shows status and message).
 * An unknown or repeated field, a broken body: 400.
 */
async function readReleaseFiles(request: FastifyRequest, maxMb: number, dir: string): Promise<FileLoaderRequest> {
  if (!request.isMultipart()) throw badRequest(FILE_LOADER_TEXTS.notMultipart);
  const read: FileLoaderRequest = { files: {}, fields: {} };
  try {
    const limits = { fileSize: Math.floor(maxMb * 1024 * 1024), files: FILE_LOADER_ALL_FILES.length + 1, fields: FIELDS.length + 1, parts: 12, fieldSize: 1024, headerPairs: 100 };
    for await (const part of request.parts({ limits })) {
      if (part.type === 'field') {
        if (!isPlainField(part.fieldname)) throw badRequest(FILE_LOADER_TEXTS.unexpectedField(part.fieldname));
        if (read.fields[part.fieldname] !== undefined) throw badRequest(FILE_LOADER_TEXTS.repeatedField(part.fieldname));
        read.fields[part.fieldname] = String(part.value);
        continue;
      }
      if (!isFileField(part.fieldname) || read.files[part.fieldname]) {
        part.file.resume();
        throw badRequest(isFileField(part.fieldname) ? FILE_LOADER_TEXTS.repeatedField(part.fieldname) : FILE_LOADER_TEXTS.unexpectedField(part.fieldname));
      }
      const path = join(dir, part.fieldname);
      await pipeline(part.file, createWriteStream(path));
      if (part.file.truncated) throw badRequest(FILE_LOADER_TEXTS.tooLarge(maxMb));
      read.files[part.fieldname] = { fileName: formFileName(part.filename, `${part.fieldname}.csv`), path, size: (await stat(path)).size };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(FILE_LOADER_TEXTS.tooLarge(maxMb));
    throw badRequest(FILE_LOADER_TEXTS.notMultipart);
  }
  return read;
}

/** The refusal as the error handler writes it; `status` is added after serialization (addStatusToErrors). */
const refusalSchema = fileLoaderErrorSchema.partial({ status: true });

/** Every refusal of these routes also carries its status (part 2 §7: the page reads status and message). */
function addStatusToErrors(instance: FastifyInstance) {
  instance.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    try {
      const body = JSON.parse(payload) as unknown;
      if (body && typeof body === 'object' && !Array.isArray(body)) return JSON.stringify({ ...body, status: reply.statusCode });
    } catch {
      /* not JSON after all: as it is */
    }
    return payload;
  });
}

function sendFile(reply: FastifyReply, file: { fileName: string; contentType: string; content: Buffer | string | PassThrough }) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .send(file.content);
}

const importDescription =
  'Upload Files (/uploadTwo), admin only: multipart/form-data with four files in the fields module, cluster, registry and segment, the optional Reference Data file in the field reference, the fields releaseId and type (massive | delta), and preview (true | false, optional: true runs the whole load as a dry run, rolled back; the upload then waits in PREVIEW for POST /data/fileLoader/{uploadId}/apply or POST /api/upload/{uploadId}/cancel). Refusals (nothing stored) are { error, message, status }: 403 not admin, 409 an upload of the caller in progress, 400 a missing or empty file or field, a bad type, a file over RELEASE_FILE_MAX_MB, a closed release, 404 an unknown release. Answers the upload (FILE_LOADER, WIP) and its job, which runs the release loader (docs/IMPORTS.md "Upload Files", docs/RELEASE-FILES.md).';

/** Upload Files and the release files under the data prefix (part 2 §2, §7; docs/IMPORTS.md "Upload Files"). Registered inside uploadRoutes (multipart). */
export async function fileLoaderRoutes(instance: FastifyInstance) {
  addStatusToErrors(instance);
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => contextOf(app, request);
  const errors = { 400: refusalSchema, 403: refusalSchema, 404: refusalSchema, 409: refusalSchema };
  const tags = ['uploads'];

  app.post('/data/fileLoader/import', { schema: { tags, summary: 'Upload Files: the four files of a release (admin)', description: importDescription, response: { 200: uploadAcceptedSchema, ...errors } } }, async (request) => {
    const c = ctx(request);
    // Admin and the WIP rule before the body is read.
    await assertMayLoadFiles(c);
    // Under DATA_DIR/spool, named after this process: a restart removes it if the process dies mid-upload.
    const dir = await makeSpoolDir(c.config.dataDir);
    try {
      return await acceptReleaseFiles(c, await readReleaseFiles(request, c.config.RELEASE_FILE_MAX_MB, dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  app.post(
    '/data/fileLoader/:uploadId/apply',
    {
      schema: {
        tags,
        summary: 'Upload Files: apply a preview — load its stored files for real (admin)',
        description:
          'Queues the real load of the files an Upload Files preview (preview=true) stored: the same files, release and type, not uploaded again. 404 unknown upload, 400 not an Upload Files preview, 409 a preview not finished, failed, expired, applied or cancelled (docs/IMPORTS.md "Upload Files").',
        // As the uploads' own routes (uploads.routes.ts uploadIdParams): an id the fuzzer's column check accepts.
        params: z.object({ uploadId: z.coerce.number().int().positive().max(INT4_MAX) }),
        response: { 200: uploadAcceptedSchema, 400: refusalSchema, 403: refusalSchema, 404: refusalSchema, 409: refusalSchema },
      },
    },
    async (request) => applyReleasePreview(ctx(request), request.params.uploadId),
  );

  app.get(
    '/data/fileLoader/template/:file',
    {
      schema: {
        tags,
        summary: 'The header-only template of a release file (module, cluster, registry, segment, reference), CSV or xlsx (admin)',
        params: z.object({ file: z.string() }),
        querystring: z.object({ format: z.enum(FILE_LOADER_TEMPLATE_FORMATS).default('csv') }),
        response: { 400: refusalSchema, 403: refusalSchema, 404: refusalSchema },
      },
    },
    async (request, reply) => sendFile(reply, await releaseFileTemplate(ctx(request), request.params.file, request.query.format)),
  );

  app.get(
    '/data/fileLoader/release/:releaseId/:file',
    {
      schema: {
        tags,
        summary: 'One file of a release (module, cluster, registry, segment, reference) as CSV, in the loader’s format (admin)',
        params: z.object({ releaseId: z.string(), file: z.string() }),
        response: { 403: refusalSchema, 404: refusalSchema },
      },
    },
    async (request, reply) => {
      const download = await releaseFileDownload(ctx(request), request.params.releaseId, request.params.file);
      const out = new PassThrough();
      download.write(out).then(
        () => out.end(),
        (err: unknown) => {
          request.log.error({ err }, 'release file download failed');
          out.destroy(err instanceof Error ? err : new Error(String(err)));
        },
      );
      return sendFile(reply, { fileName: download.fileName, contentType: CSV_TYPE, content: out });
    },
  );
}
