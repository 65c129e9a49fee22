import { and, desc, eq, inArray, like, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { exportFileChunks, exportFiles, jobs, legoMonths, templates } from '../../db/schema.js';
import { rawBytea } from '../../db/raw-bytea.js';

/** The columns of a template of that type ('modulo', 'cluster'), or null when there is no such template. */
export async function findTemplateColumns(db: Queryable, templateId: number, templatesType: string): Promise<string[] | null> {
  const [template] = await db
    .select({ columns: templates.columns })
    .from(templates)
    .where(and(eq(templates.templateId, templateId), eq(templates.templatesType, templatesType)));
  return template?.columns ?? null;
}

/** `month|brand|collection` of the LEGO months among the items' (their LEGO badge). */
export async function legoKeys(db: Queryable, items: readonly { monthId: string; brandCode: string; collection: string }[]): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const rows = await db
    .select()
    .from(legoMonths)
    .where(inArray(legoMonths.monthId, [...new Set(items.map((i) => i.monthId))]));
  return new Set(rows.map((l) => legoKey(l)));
}
export const legoKey = (i: { monthId: string; brandCode: string; collection: string }) => `${i.monthId}|${i.brandCode}|${i.collection}`;


/** Removes the exports (row and file) made before `before`; answers how many. */
export async function deleteExportsBefore(db: Queryable, before: Date): Promise<number> {
  const removed = await db.delete(exportFiles).where(lt(exportFiles.date, before)).returning({ id: exportFiles.id });
  return removed.length;
}

/** What an export holds, as its row records it (the histories show it). */
interface ExportSubjectRow {
  itemKind: string;
  itemCount: number;
  itemNames: string[];
  monthIds: string[];
}

/** A new export row, WIP at 0 %, with what it holds. */
export async function insertExportFile(db: Queryable, user: string, exportType: string, subject: ExportSubjectRow): Promise<number> {
  const [file] = await db.insert(exportFiles).values({ user, exportType, status: 'WIP', progress: 0, ...subject }).returning({ id: exportFiles.id });
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

/** The export is DONE: its file is in export_file_chunks (export-chunks.ts). */
export async function storeExportDone(db: Queryable, exportId: number, file: { fileName: string; contentType: string }): Promise<void> {
  await db.update(exportFiles).set({ status: 'DONE', progress: 100, ...file, message: null }).where(eq(exportFiles.id, exportId));
}

export async function clearExportChunks(db: Queryable, exportId: number): Promise<void> {
  await db.delete(exportFileChunks).where(eq(exportFileChunks.exportId, exportId));
}

export async function insertExportChunk(db: Queryable, exportId: number, seq: number, data: Buffer): Promise<void> {
  await db.insert(exportFileChunks).values({ exportId, seq, data });
}

export function readExportChunk(db: Queryable, exportId: number, seq: number): Promise<Buffer | null> {
  return rawBytea(db, sql`SELECT data FROM export_file_chunks WHERE export_id = ${exportId} AND seq = ${seq}`);
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

/**
 * Exports, newest first, at most `limit`, with their job's state; `owner` null = everybody's; `pdfOnly`
 * for the PDF area (the export history lists every format). The files' bytes are not read.
 */
export async function listExports(db: Queryable, owner: string | null, limit: number, opts: { pdfOnly: boolean }) {
  return db
    .select({
      id: exportFiles.id,
      date: exportFiles.date,
      progress: exportFiles.progress,
      status: exportFiles.status,
      exportType: exportFiles.exportType,
      user: exportFiles.user,
      fileName: exportFiles.fileName,
      message: exportFiles.message,
      itemKind: exportFiles.itemKind,
      itemCount: exportFiles.itemCount,
      itemNames: exportFiles.itemNames,
      monthIds: exportFiles.monthIds,
      jobStatus: jobs.status,
      jobResponse: jobs.response,
    })
    .from(exportFiles)
    .leftJoin(jobs, eq(jobs.id, exportFiles.jobId))
    .where(and(opts.pdfOnly ? like(exportFiles.exportType, 'pdf%') : undefined, ownedBy(owner)))
    .orderBy(desc(exportFiles.date), desc(exportFiles.id))
    .limit(limit);
}
