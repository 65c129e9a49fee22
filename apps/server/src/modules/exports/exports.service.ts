/**
 * Module exports (spreadsheet, spreadsheet with photos, PDF): the call checks and records the
 * export, a persisted job builds the file (export.job.ts), the call waits for it a while and answers
 * the file, or 202 when it takes longer (the file is then downloaded from the export history).
 */
import {
  EXPORT_TEXTS,
  exportFileUrl,
  isMassiveExport,
  isPdfExport,
  isPhotoExport,
  type ExportFormat,
  type ExportItem,
  type ExportQuery,
  type ExportStarted,
  type ModuleExportItem,
} from '@bo/shared/exports';
import { moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleKey } from '@bo/shared/modules';
import { canExport, isAdmin } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../lib/context.js';
import { AppError, badRequest, conflict, forbidden, notFound, ruleBroken } from '../../lib/errors.js';
import { findModules, moduleZones } from '../modules/modules.repository.js';
import { EXPORT_JOB, type ExportJobPayload } from './export.job.js';
import { findExportFile, findModuleTemplateColumns, insertExportFile, linkExportJob, listPdfExports } from './exports.repository.js';

export const EXPORT_ERRORS = {
  templateRequired: 'Choose a template: spreadsheet exports need one',
  oneModule: 'This format exports one module; use the _massive variant for several',
  notReady: 'The export is still in progress',
  notFound: 'There is no such export',
} as const;

export interface ExportedFile {
  exportId: number;
  fileName: string;
  contentType: string;
  content: Buffer;
}

export type ExportAnswer = { done: true; file: ExportedFile } | { done: false; started: ExportStarted };

const keyOf = moduleKeyString;

/** bytea arrives as a Buffer from pg and as a Uint8Array from PGlite. */
const toBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

async function templateColumns(db: Queryable, templateId: number): Promise<string[]> {
  const columns = await findModuleTemplateColumns(db, templateId);
  if (!columns) throw notFound(`There is no module template ${templateId}`, 'templateNotFound');
  return columns;
}

/** The modules to export, in the caller's order: checked to exist and be exportable by the caller, filtered by status. */
async function modulesToExport(ctx: ServiceContext, items: readonly ModuleExportItem[], status: ExportQuery['status']): Promise<ModuleKey[]> {
  const keys = [...new Map(items.map((i) => [keyOf(i), { moduleName: i.moduleName, monthId: i.monthId }])).values()];
  const rows = new Map((await findModules(ctx.db, keys)).map((r) => [keyOf(r), r]));
  const zones = await moduleZones(ctx.db, [...rows.values()].map((r) => r.id));
  const kept: ModuleKey[] = [];
  for (const key of keys) {
    const row = rows.get(keyOf(key));
    if (!row) throw notFound(`The module ${key.moduleName} does not exist in ${key.monthId}`, 'moduleNotFound');
    if (!canExport(ctx.user.grants, { brand: row.brandCode, zones: zones.get(row.id) ?? [] })) {
      throw forbidden(`You don't have the right to export the module ${key.moduleName}`);
    }
    if (status === 'Saved' || row.status === 'SUBMITTED') kept.push(key);
  }
  if (kept.length === 0) throw ruleBroken('nothingToExport', EXPORT_TEXTS.nothingToExport);
  return kept;
}

export async function exportModules(ctx: ServiceContext, format: ExportFormat, query: ExportQuery, items: readonly ModuleExportItem[]): Promise<ExportAnswer> {
  const pdf = isPdfExport(format);
  if (!pdf && query.templateId === undefined) {
    throw badRequest(EXPORT_ERRORS.templateRequired, [{ path: 'querystring.templateId', message: 'Required' }]);
  }
  if (!isMassiveExport(format) && items.length !== 1) throw badRequest(EXPORT_ERRORS.oneModule, [{ path: 'body', message: 'One module expected' }]);
  const columns = pdf ? [] : await templateColumns(ctx.db, query.templateId!);
  const modules = await modulesToExport(ctx, items, query.status);
  const withPhoto = isPhotoExport(format) || query.withPhoto === true;

  const { exportId, jobId } = await ctx.db.transaction(async (tx) => {
    const exportId = await insertExportFile(tx, ctx.user.username, format);
    const payload: ExportJobPayload = { exportId, format, modules, status: query.status, columns, withPhoto };
    const job = await ctx.jobs.enqueue(tx, EXPORT_JOB, payload, ctx.user.username);
    await linkExportJob(tx, exportId, job.id);
    const one = modules.length === 1 ? modules[0]! : null;
    await audit(tx, {
      username: ctx.user.username,
      action: 'export',
      itemType: 'module',
      ...(one ? { itemKey: one.moduleName, monthId: one.monthId } : {}),
      requestId: ctx.requestId,
      summary: { exportId, format, status: query.status, templateId: pdf ? null : query.templateId, withPhoto, modules, userId: query.userId },
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
  if (state.status === 'ERROR' || !row.content) throw ruleBroken('exportFailed', state.message ?? EXPORT_TEXTS.failed);
  return { exportId: row.id, fileName: row.fileName ?? 'export', contentType: row.contentType ?? 'application/octet-stream', content: toBuffer(row.content) };
}

const MAX_LISTED = 200;

/** The PDF area: the caller's PDF exports (an admin's: everybody's), newest first. */
export async function pdfExportStatus(ctx: ServiceContext): Promise<ExportItem[]> {
  const rows = await listPdfExports(ctx.db, owner(ctx), MAX_LISTED);
  return rows.map((r) => {
    const state = effectiveState(r);
    return {
      id: r.id,
      date: r.date.toISOString(),
      progress: r.progress,
      pdfUrl: state.status === 'DONE' ? exportFileUrl(r.id) : null,
      status: state.status,
      exportType: r.exportType,
      user: r.user,
      message: state.message,
    };
  });
}
