import { and, desc, eq, like, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { exportFiles, jobs, templates } from '../../db/schema.js';

/** The columns of a module template, or null when there is no such module template. */
export async function findModuleTemplateColumns(db: Queryable, templateId: number): Promise<string[] | null> {
  const [template] = await db
    .select({ columns: templates.columns })
    .from(templates)
    .where(and(eq(templates.templateId, templateId), eq(templates.templatesType, 'modulo')));
  return template?.columns ?? null;
}

/** A new export row, WIP at 0 %. */
export async function insertExportFile(db: Queryable, user: string, exportType: string): Promise<number> {
  const [file] = await db.insert(exportFiles).values({ user, exportType, status: 'WIP', progress: 0 }).returning({ id: exportFiles.id });
  return file!.id;
}

export async function linkExportJob(db: Queryable, exportId: number, jobId: number): Promise<void> {
  await db.update(exportFiles).set({ jobId }).where(eq(exportFiles.id, exportId));
}

export async function exportStatus(db: Queryable, exportId: number): Promise<string | null> {
  const [row] = await db.select({ status: exportFiles.status }).from(exportFiles).where(eq(exportFiles.id, exportId));
  return row?.status ?? null;
}

/** Progress of a WIP export (a finished or failed one keeps its state). */
export async function setExportProgress(db: Queryable, exportId: number, progress: number): Promise<void> {
  await db.update(exportFiles).set({ progress }).where(and(eq(exportFiles.id, exportId), eq(exportFiles.status, 'WIP')));
}

export async function storeExportContent(
  db: Queryable,
  exportId: number,
  file: { content: Buffer; fileName: string; contentType: string },
): Promise<void> {
  await db.update(exportFiles).set({ status: 'DONE', progress: 100, ...file, message: null }).where(eq(exportFiles.id, exportId));
}

export async function markExportFailed(db: Queryable, exportId: number, message: string): Promise<void> {
  await db.update(exportFiles).set({ status: 'ERROR', message }).where(eq(exportFiles.id, exportId));
}

/** Whose exports a caller sees: their own (user name compared case-insensitively), or everybody's (null). */
const ownedBy = (owner: string | null) => (owner === null ? undefined : sql`lower(${exportFiles.user}) = lower(${owner})`);

/** One export with its file and its job's state; `owner` null = any owner (an admin). */
export async function findExportFile(db: Queryable, id: number, owner: string | null) {
  const [row] = await db
    .select({
      id: exportFiles.id,
      status: exportFiles.status,
      message: exportFiles.message,
      fileName: exportFiles.fileName,
      contentType: exportFiles.contentType,
      content: exportFiles.content,
      jobStatus: jobs.status,
      jobResponse: jobs.response,
    })
    .from(exportFiles)
    .leftJoin(jobs, eq(jobs.id, exportFiles.jobId))
    .where(and(eq(exportFiles.id, id), ownedBy(owner)));
  return row ?? null;
}

/** PDF exports, newest first, at most `limit`; `owner` null = everybody's. */
export async function listPdfExports(db: Queryable, owner: string | null, limit: number) {
  return db
    .select({
      id: exportFiles.id,
      date: exportFiles.date,
      progress: exportFiles.progress,
      status: exportFiles.status,
      exportType: exportFiles.exportType,
      user: exportFiles.user,
      message: exportFiles.message,
      jobStatus: jobs.status,
      jobResponse: jobs.response,
    })
    .from(exportFiles)
    .leftJoin(jobs, eq(jobs.id, exportFiles.jobId))
    .where(and(like(exportFiles.exportType, 'pdf%'), ownedBy(owner)))
    .orderBy(desc(exportFiles.date), desc(exportFiles.id))
    .limit(limit);
}
