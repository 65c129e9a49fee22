/**
 * The uploads table. An upload's state is its job's (docs/IMPORTS.md "States"): status, progress and
 * response are read through `job_id`, never stored twice.
 */
import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { UploadItem, UploadType } from '@bo/shared/uploads';
import type { Queryable } from '../../db/client.js';
import { jobs, starsZones, uploads } from '../../db/schema.js';

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
};

type UploadRecord = { id: number; insertTime: Date; type: string; userId: string; fileName: string; size: number; jobStatus: string; progress: number; response: string | null };

/** The upload as the list shows it: the job's QUEUED/RUNNING is WIP, DONE is DONE, FAILED is ERROR. */
const toItem = (r: UploadRecord): UploadItem => {
  const status = r.jobStatus === 'DONE' ? 'DONE' : r.jobStatus === 'FAILED' ? 'ERROR' : 'WIP';
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

/** The user's upload in progress (its job QUEUED or RUNNING), if any. */
export async function wipUploadOf(db: Queryable, username: string): Promise<UploadItem | null> {
  const [row] = await db
    .select(uploadColumns)
    .from(uploads)
    .innerJoin(jobs, eq(jobs.id, uploads.jobId))
    .where(sql`${ownedBy(username)} AND ${inArray(jobs.status, WIP_JOB_STATUSES)}`)
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

export async function insertUpload(tx: Queryable, row: { type: UploadType; userId: string; fileName: string; size: number; content: Buffer; jobId: number }): Promise<UploadItem> {
  const [saved] = await tx.insert(uploads).values(row).returning({ id: uploads.id });
  const [item] = await tx
    .select(uploadColumns)
    .from(uploads)
    .innerJoin(jobs, eq(jobs.id, uploads.jobId))
    .where(eq(uploads.id, saved!.id));
  return toItem(item!);
}

/** The stored file of the upload a job processes. */
export async function uploadOfJob(db: Queryable, jobId: number): Promise<{ id: number; type: string; fileName: string; content: Buffer } | null> {
  const [row] = await db.select({ id: uploads.id, type: uploads.type, fileName: uploads.fileName, content: uploads.content }).from(uploads).where(eq(uploads.jobId, jobId));
  return row ? { ...row, content: Buffer.from(row.content) } : null;
}

/** Every stars zone code (an admin's import creates a module in all of them unless the file says which). */
export async function allStarsZones(db: Queryable): Promise<string[]> {
  const rows = await db.select({ code: starsZones.zoneCode }).from(starsZones).orderBy(starsZones.zoneCode);
  return rows.map((r) => r.code);
}
