/**
 * The uploads table. An upload's state is its job's (docs/IMPORTS.md "States"): status, progress and
 * response are read through `job_id`, never stored twice. An upload sent with a preview
 * (docs/IMPORT-PREVIEW.md) also has `preview_job_id` and a `decision`: PREVIEW while its computed preview
 * waits (EXPIRED past UPLOAD_PREVIEW_TTL_MINUTES), CANCELLED, or, once applied, its import job's state.
 */
import fs from 'node:fs';
import { desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { UPLOAD_PREVIEW_TTL_MINUTES, type ImportResult, type UploadItem, type UploadStatus, type UploadType } from '@bo/shared/uploads';
import { pgClientOf, type Queryable } from '../../db/client.js';
import { rawBytea } from '../../db/raw-bytea.js';
import { storedPiecesStream } from '../../lib/stored-pieces.js';
import { jobs, starsZones, uploadFileChunks, uploadFiles, uploads } from '../../db/schema.js';
import type { FileSource } from './release-loader/read-records.js';

const WIP_JOB_STATUSES = ['QUEUED', 'RUNNING'];

const uploadColumns = {
  id: uploads.id,
  insertTime: uploads.insertTime,
  type: uploads.type,
  userId: uploads.userId,
  fileName: uploads.fileName,
  size: uploads.size,
  jobStatus: jobs.status,
  progress: jobs.progress,
  response: jobs.response,
  previewJobId: uploads.previewJobId,
  decision: uploads.decision,
  /** A finished preview older than UPLOAD_PREVIEW_TTL_MINUTES. */
  expired: sql<boolean>`coalesce(${jobs.finishedAt} < now() - interval '${sql.raw(String(UPLOAD_PREVIEW_TTL_MINUTES))} minutes', false)`,
};

type UploadRecord = {
  id: number;
  insertTime: Date;
  type: string;
  userId: string;
  fileName: string;
  size: number;
  jobStatus: string;
  progress: number;
  response: string | null;
  previewJobId: number | null;
  decision: string | null;
  expired: boolean;
};

/** A preview decided on: APPLIED (job_id is then the import's) or CANCELLED. */
type UploadDecision = 'APPLIED' | 'CANCELLED';

/** An upload's status from its job's (QUEUED/RUNNING: WIP, DONE: DONE, FAILED: ERROR) and its preview's decision. */
function statusOf(r: Pick<UploadRecord, 'jobStatus' | 'previewJobId' | 'decision' | 'expired'>): UploadStatus {
  if (r.decision === 'CANCELLED') return 'CANCELLED';
  const waiting = r.previewJobId !== null && r.decision === null;
  if (r.jobStatus === 'FAILED') return 'ERROR';
  if (r.jobStatus !== 'DONE') return 'WIP';
  if (!waiting) return 'DONE';
  return r.expired ? 'EXPIRED' : 'PREVIEW';
}

/** The upload as the list shows it. */
const toItem = (r: UploadRecord): UploadItem => {
  const status = statusOf(r);
  return {
    id: r.id,
    insertTime: r.insertTime.toISOString(),
    type: r.type as UploadType,
    userId: r.userId,
    fileName: r.fileName,
    size: r.size,
    status,
    progress: status === 'WIP' ? Math.min(r.progress, 99) : 100,
    response: r.response,
  };
};

const ownedBy = (username: string): SQL => sql`lower(${uploads.userId}) = lower(${username})`;

/** Serialises one user's uploads (the WIP rule) until the transaction ends. */
export async function lockUserUploads(tx: Queryable, username: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`upload:${username.toLowerCase()}`}))`);
}

/**
 * The user's upload in progress, if any: its job QUEUED or RUNNING (a preview being computed, or an
 * import), or its preview waiting for Apply or Cancel (not expired).
 */
export async function wipUploadOf(db: Queryable, username: string): Promise<UploadItem | null> {
  const running = sql`${inArray(jobs.status, WIP_JOB_STATUSES)} AND ${uploads.decision} IS DISTINCT FROM 'CANCELLED'`;
  const waiting = sql`${uploads.previewJobId} IS NOT NULL AND ${uploads.decision} IS NULL AND ${jobs.status} = 'DONE' AND NOT ${uploadColumns.expired}`;
  const [row] = await db
    .select(uploadColumns)
    .from(uploads)
    .innerJoin(jobs, eq(jobs.id, uploads.jobId))
    .where(sql`${ownedBy(username)} AND ((${running}) OR (${waiting}))`)
    .orderBy(desc(uploads.insertTime), desc(uploads.id))
    .limit(1);
  return row ? toItem(row) : null;
}

/** Uploads newest first: the user's own, or everyone's (`username` null). */
export async function listUploads(db: Queryable, username: string | null, limit: number): Promise<UploadItem[]> {
  const rows = await db
    .select(uploadColumns)
    .from(uploads)
    .innerJoin(jobs, eq(jobs.id, uploads.jobId))
    .where(username === null ? undefined : ownedBy(username))
    .orderBy(desc(uploads.insertTime), desc(uploads.id))
    .limit(limit);
  return rows.map(toItem);
}

/** One file of an upload that has several (upload_files), by the multipart field it came in: spooled to `path` by the route. */
export interface StoredUploadFile {
  field: string;
  fileName: string;
  size: number;
  path: string;
}

/** How many bytes one row of upload_file_chunks holds. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

/** Copies a spooled file into upload_file_chunks, one piece of UPLOAD_CHUNK_BYTES at a time. */
async function insertChunks(tx: Queryable, uploadId: number, file: StoredUploadFile): Promise<void> {
  let seq = 0;
  for await (const piece of fs.createReadStream(file.path, { highWaterMark: UPLOAD_CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    await tx.insert(uploadFileChunks).values({ uploadId, field: file.field, seq: seq++, data: piece });
  }
}

/** Stores the upload row and, for an upload of several files (`files`), each of them in upload_files and its chunks. */
export async function insertUpload(
  tx: Queryable,
  row: { type: UploadType; userId: string; fileName: string; size: number; content: Buffer; jobId: number; previewJobId?: number },
  files: readonly StoredUploadFile[] = [],
): Promise<UploadItem> {
  const [saved] = await tx.insert(uploads).values(row).returning({ id: uploads.id });
  if (files.length) {
    await tx.insert(uploadFiles).values(files.map((f) => ({ uploadId: saved!.id, field: f.field, fileName: f.fileName, size: f.size })));
    for (const file of files) await insertChunks(tx, saved!.id, file);
  }
  return (await uploadItem(tx, saved!.id))!;
}

/** One upload as the list shows it. */
export async function uploadItem(db: Queryable, id: number): Promise<UploadItem | null> {
  const [item] = await db.select(uploadColumns).from(uploads).innerJoin(jobs, eq(jobs.id, uploads.jobId)).where(eq(uploads.id, id));
  return item ? toItem(item) : null;
}

/** An upload with what Apply and Cancel decide on: its owner, its preview job and that job's result (`FOR UPDATE` in a transaction that decides). */
export async function uploadWithPreview(
  db: Queryable,
  id: number,
  forUpdate = false,
): Promise<{ item: UploadItem; type: UploadType; userId: string; previewJobId: number | null; decision: string | null; previewResult: ImportResult | null } | null> {
  const query = db
    .select({ ...uploadColumns, previewResult: jobs.result })
    .from(uploads)
    .innerJoin(jobs, eq(jobs.id, uploads.jobId))
    .where(eq(uploads.id, id));
  const [row] = forUpdate ? await query.for('update', { of: uploads }) : await query;
  if (!row) return null;
  const item = toItem(row);
  // The job's result is the preview only while job_id is the preview job.
  const previewResult = row.previewJobId !== null && row.decision === null && item.status !== 'WIP' && item.status !== 'ERROR' ? (row.previewResult as ImportResult) : null;
  return { item, type: row.type as UploadType, userId: row.userId, previewJobId: row.previewJobId, decision: row.decision, previewResult };
}

/** Records the decision on a preview; Apply also points the upload at its import job. */
export async function decideUpload(tx: Queryable, id: number, decision: UploadDecision, jobId?: number): Promise<void> {
  await tx
    .update(uploads)
    .set({ decision, ...(jobId === undefined ? {} : { jobId }) })
    .where(eq(uploads.id, id));
}

/** The stored file of the upload a job processes (its import, or its preview). */
export async function uploadOfJob(db: Queryable, jobId: number): Promise<{ id: number; type: string; fileName: string; content: Buffer } | null> {
  const [row] = await db
    .select({ id: uploads.id, type: uploads.type, fileName: uploads.fileName, content: uploads.content })
    .from(uploads)
    .where(or(eq(uploads.jobId, jobId), eq(uploads.previewJobId, jobId)));
  return row ? { ...row, content: Buffer.from(row.content) } : null;
}

/** The files (upload_files) of the upload a job processes: their names and sizes (the bytes: `chunkSource`). */
export async function uploadFilesOfJob(db: Queryable, jobId: number): Promise<{ uploadId: number; field: string; fileName: string; size: number }[]> {
  return db
    .select({ uploadId: uploadFiles.uploadId, field: uploadFiles.field, fileName: uploadFiles.fileName, size: uploadFiles.size })
    .from(uploadFiles)
    .innerJoin(uploads, eq(uploads.id, uploadFiles.uploadId))
    .where(eq(uploads.jobId, jobId));
}

/**
 * A stored upload file as a release-loader source: its chunks read one at a time, in order. On
 * PostgreSQL they are read through `db` (the pool), outside the load's transaction — its connection may be
 * busy with a COPY; on the embedded database through the load's transaction (`open(tx)`), its one connection.
 */
export function chunkSource(db: Queryable, file: { uploadId: number; field: string; fileName: string; size: number }): FileSource {
  return {
    name: file.fileName,
    size: file.size,
    open: (tx) => {
      const reader = tx && !pgClientOf(tx) ? tx : db;
      return storedPiecesStream((seq) =>
        rawBytea(reader, sql`SELECT data FROM upload_file_chunks WHERE upload_id = ${file.uploadId} AND field = ${file.field} AND seq = ${seq}`),
      );
    },
  };
}

/** Every stars zone code (an admin's import creates a module in all of them unless the file says which). */
export async function allStarsZones(db: Queryable): Promise<string[]> {
  const rows = await db.select({ code: starsZones.zoneCode }).from(starsZones).orderBy(starsZones.zoneCode);
  return rows.map((r) => r.code);
}
