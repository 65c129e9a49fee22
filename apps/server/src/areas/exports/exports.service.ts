/**
 * Module and cluster exports (spreadsheet, spreadsheet with photos, PDF): the call checks and records
 * the export, a persisted job builds the file (export.job.ts, through the item kind's reading and
 * writing), the call waits for it a while and answers the file, or 202 when it takes longer (the file
 * is then downloaded from the export history).
 */
import type { Readable } from 'node:stream';
import {
  EXPORT_NAMES_SHOWN,
  EXPORT_TEMPLATE_TYPES,
  EXPORT_TEXTS,
  exportFileUrl,
  isMassiveExport,
  isPdfExport,
  isPhotoExport,
  type ClusterExportItem,
  type ExportFormat,
  type ExportItem,
  type ExportKind,
  type ExportQuery,
  type ExportStarted,
  type ModuleExportItem,
} from '@bo/shared/exports';
import { itemKeyString } from '@bo/shared/item-keys';
import { compareMonthIds } from '@bo/shared/months';
import { isAdmin } from '@bo/shared/permissions';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { AppError, badRequest, conflict, notFound, ruleBroken } from '../../lib/errors.js';
import { exportChunkStream } from './export-chunks.js';
import type { ExportTarget } from './export-kind.js';
import { EXPORT_KIND_DEFS, type ExportJobPayload } from './export.job.js';
import { findExportFile, findTemplateColumns, insertExportFile, linkExportJob, listExports } from './exports.repository.js';
import { EXPORT_JOB } from '../../jobs/job-kinds.js';

const EXPORT_ERRORS = {
  templateRequired: 'Choose a template: spreadsheet exports need one',
  oneItem: (noun: string) => `This format exports one ${noun}; use the _massive variant for several`,
  notReady: 'The export is still in progress',
  notFound: 'There is no such export',
} as const;

export interface ExportedFile {
  exportId: number;
  fileName: string;
  contentType: string;
  /** The stored file: read piece by piece (export_file_chunks), or whole for an export stored before them. */
  content: Buffer | Readable;
}

/** An export call's answer: the file when it was built in time, else where to find it later. */
export type ExportAnswer = { done: true; file: ExportedFile } | { done: false; started: ExportStarted };

/** bytea arrives as a Buffer from pg and as a Uint8Array from PGlite. */
const toBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** The body's narrowing, only the fields given (the job payload stays small). */
const narrowingOf = (item: ModuleExportItem | ClusterExportItem) => ({
  ...(item.zones ? { zones: item.zones } : {}),
  ...(item.customers ? { customers: item.customers } : {}),
  ...(item.legoMonth !== undefined ? { legoMonth: item.legoMonth } : {}),
});

export const exportModules = (ctx: ServiceContext, format: ExportFormat, query: ExportQuery, items: readonly ModuleExportItem[]) =>
  startExport(ctx, 'module', format, query, items.map((i) => ({ name: i.moduleName, monthId: i.monthId, ...narrowingOf(i) })));

export const exportClusters = (ctx: ServiceContext, format: ExportFormat, query: ExportQuery, items: readonly ClusterExportItem[]) =>
  startExport(ctx, 'cluster', format, query, items.map((i) => ({ name: i.clusterName, monthId: i.monthId, ...narrowingOf(i) })));

/** The same item named twice is exported once, where it first appears. */
function distinct(targets: readonly ExportTarget[]): ExportTarget[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = itemKeyString({ itemKey: t.name, monthId: t.monthId });
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the export holds, for its history row: the kind, how many, the first names, the months in calendar order. */
function subjectOf(kind: ExportKind, items: readonly ExportTarget[]) {
  return {
    itemKind: kind,
    itemCount: items.length,
    itemNames: items.slice(0, EXPORT_NAMES_SHOWN).map((i) => i.name),
    monthIds: [...new Set(items.map((i) => i.monthId))].sort(compareMonthIds),
  };
}

async function startExport(ctx: ServiceContext, kind: ExportKind, format: ExportFormat, query: ExportQuery, named: readonly ExportTarget[]): Promise<ExportAnswer> {
  const def = EXPORT_KIND_DEFS[kind];
  const pdf = isPdfExport(format);
  if (!pdf && query.templateId === undefined) {
    throw badRequest(EXPORT_ERRORS.templateRequired, [{ path: 'querystring.templateId', message: 'Required' }]);
  }
  if (!isMassiveExport(format) && named.length !== 1) throw badRequest(EXPORT_ERRORS.oneItem(kind), [{ path: 'body', message: `One ${kind} expected` }]);
  const templatesType = EXPORT_TEMPLATE_TYPES[kind];
  const columns = pdf ? [] : await findTemplateColumns(ctx.db, query.templateId!, templatesType);
  if (!columns) throw notFound(`There is no ${kind} template ${query.templateId}`, 'templateNotFound');
  const items = await def.check(ctx, distinct(named), query.status);
  const withPhoto = isPhotoExport(format) || query.withPhoto === true;

  const { exportId, jobId } = await ctx.db.transaction(async (tx) => {
    const exportId = await insertExportFile(tx, ctx.user.username, format, subjectOf(kind, items));
    const payload: ExportJobPayload = { exportId, format, kind, items, status: query.status, columns, withPhoto };
    const job = await ctx.jobs.enqueue(tx, EXPORT_JOB, payload, ctx.user.username);
    await linkExportJob(tx, exportId, job.id);
    const one = items.length === 1 ? items[0]! : null;
    await audit(tx, {
      username: ctx.user.username,
      action: 'export',
      itemType: kind,
      ...(one ? { itemKey: one.name, monthId: one.monthId } : {}),
      requestId: ctx.requestId,
      summary: { exportId, format, status: query.status, templateId: pdf ? null : query.templateId, withPhoto, items, userId: query.userId },
    });
    return { exportId, jobId: job.id };
  });

  const finished = await ctx.jobs.waitFor(jobId, ctx.config.EXPORT_WAIT_MS);
  if (finished?.status === 'FAILED') throw new AppError(500, 'exportFailed', finished.response ?? EXPORT_TEXTS.failed);
  if (finished?.status === 'DONE') return { done: true, file: await storedFile(ctx, exportId) };
  return { done: false, started: { exportId, jobId, message: EXPORT_TEXTS.inProgress } };
}

interface ExportRowState {
  status: string;
  message: string | null;
  jobStatus: string | null;
  jobResponse: string | null;
}

/** A WIP export whose job failed without saying so (interrupted too many times) is an error. */
function effectiveState(row: ExportRowState): { status: 'WIP' | 'DONE' | 'ERROR'; message: string | null } {
  if (row.status === 'WIP' && row.jobStatus === 'FAILED') return { status: 'ERROR', message: row.jobResponse ?? EXPORT_TEXTS.failed };
  return { status: row.status as 'WIP' | 'DONE' | 'ERROR', message: row.message };
}

/** The owner whose exports the caller sees: themselves, or everybody (null) for an admin. */
const owner = (ctx: ServiceContext) => (isAdmin(ctx.user.grants) ? null : ctx.user.username);

/** A stored export file: the caller's own, or any for an admin. */
export async function storedFile(ctx: ServiceContext, id: number): Promise<ExportedFile> {
  const row = await findExportFile(ctx.db, id, owner(ctx));
  if (!row) throw notFound(EXPORT_ERRORS.notFound, 'exportNotFound');
  const state = effectiveState(row);
  if (state.status === 'WIP') throw conflict(EXPORT_ERRORS.notReady, 'exportNotReady');
  if (state.status === 'ERROR') throw ruleBroken('exportFailed', state.message ?? EXPORT_TEXTS.failed);
  const content = row.content ? toBuffer(row.content) : exportChunkStream(ctx.db, row.id);
  return { exportId: row.id, fileName: row.fileName ?? 'export', contentType: row.contentType ?? 'application/octet-stream', content };
}

const MAX_LISTED = 200;

type ListedExport = Awaited<ReturnType<typeof listExports>>[number];

/** A listed export as the PDF area and the export history show it (part 2 §3 "Export item"). */
export function exportListItem(row: ListedExport): ExportItem {
  const state = effectiveState(row);
  return {
    id: row.id,
    date: row.date.toISOString(),
    progress: row.progress,
    pdfUrl: state.status === 'DONE' ? exportFileUrl(row.id) : null,
    status: state.status,
    exportType: row.exportType,
    user: row.user,
    message: state.message,
    itemKind: row.itemKind === 'module' || row.itemKind === 'cluster' ? row.itemKind : null,
    itemCount: row.itemCount,
    itemNames: row.itemNames ?? [],
    monthIds: row.monthIds ?? [],
  };
}

/** The exports the caller sees (an admin: everybody's), newest first: the PDF ones (`pdfOnly`) or all. */
export async function listedExports(ctx: ServiceContext, limit: number, opts: { pdfOnly: boolean }): Promise<ListedExport[]> {
  return listExports(ctx.db, owner(ctx), limit, opts);
}

/** The PDF area: the caller's PDF exports (an admin's: everybody's), newest first. */
export async function pdfExportStatus(ctx: ServiceContext): Promise<ExportItem[]> {
  return (await listedExports(ctx, MAX_LISTED, { pdfOnly: true })).map(exportListItem);
}
