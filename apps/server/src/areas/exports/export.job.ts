/**
 * The export job: builds the spreadsheet or PDF of the items named in its payload, through their
 * kind (module-export.ts, cluster-export.ts), and stores it piece by piece as it is made
 * (export-chunks.ts) before marking its `export_files` row DONE. A run cut short leaves the row WIP;
 * the resumed run removes the pieces stored so far and builds the file again.
 */
import { EXPORT_CONTENT_TYPES, EXPORT_TEXTS, isMassiveExport, isPdfExport, type ExportFormat, type ExportKind } from '@bo/shared/exports';
import type { ModuleKey, ProductDto } from '@bo/shared/modules';
import { compareMonthIds, formatMonthId } from '@bo/shared/months';
import type { Db } from '../../db/client.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import { jobErrorText } from '../../jobs/job-text.js';
import { pictureKey, type SkuPictures } from '../../lib/images/sku-pictures.js';
import { clusterExport } from './cluster-export.js';
import { targetKey, type ExportKindDef, type ExportStatus, type ExportTarget } from './export-kind.js';
import { ExportChunkStore } from './export-chunks.js';
import { exportWorker, type ExportSession } from './export-worker-client.js';
import { exportPictureRequest } from './export-writers.js';
import { exportStatus, markExportFailed, setExportProgress, storeExportDone } from './exports.repository.js';
import { moduleExport } from './module-export.js';


export interface ExportJobPayload {
  exportId: number;
  format: ExportFormat;
  /** Absent in jobs queued before cluster exports: module. */
  kind?: ExportKind;
  /** The items to export, in the caller's order (checked at the call). */
  items?: ExportTarget[];
  /** Jobs queued before `items`: the modules. */
  modules?: ModuleKey[];
  status: ExportStatus;
  /** The template's columns at the time of the call (spreadsheets only). */
  columns: string[];
  withPhoto: boolean;
}

/** Each kind's reading and writing. */
export const EXPORT_KIND_DEFS: { [K in ExportKind]: ExportKindDef<unknown> } = {
  module: moduleExport as ExportKindDef<unknown>,
  cluster: clusterExport as ExportKindDef<unknown>,
};

/** Progress of the reading and writing; the rest is the final encoding. */
const WRITING_SHARE = 95;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What the file holds, gathered while it is written: it names the file. */
interface WrittenItems {
  /** The label of the first item written (names a one-item file). */
  firstLabel: string;
  count: number;
  brands: ReadonlySet<string>;
  monthIds: ReadonlySet<string>;
}

/** A piece of a file name: letters, digits, '_' and '-' only (a brand code or a month as written). */
const namePart = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_');

/** Brands in the name: up to three, then how many. */
const MAX_NAMED_BRANDS = 3;

/**
 * The file's name. One item: its label with .xlsx or .pdf (part 2 §9). Several: what the file holds
 * (issue 34 item 8; the spec's `massive-export.*` told two exports apart by nothing): the kind, the
 * brands (past three: how many), the month (or first and last month) and the count, e.g.
 * `modules-AUR-01-2027-12-items.xlsx`, `clusters-AUR-RAY-01-2027-to-03-2027-40-items.pdf`.
 */
export function exportFileName(format: ExportFormat, kind: ExportKind, written: WrittenItems): string {
  const extension = isPdfExport(format) ? 'pdf' : 'xlsx';
  if (!isMassiveExport(format) || written.count === 1) return `${written.firstLabel}.${extension}`;
  const brands = [...written.brands].sort();
  const brandPart = brands.length <= MAX_NAMED_BRANDS ? brands.map(namePart).join('-') : `${brands.length}-brands`;
  const months = [...written.monthIds].sort(compareMonthIds).map((m) => formatMonthId(m).replace('/', '-'));
  const monthPart = months.length === 1 ? months[0]! : `${months[0]}-to-${months.at(-1)}`;
  return `${kind}s-${brandPart}-${monthPart}-${written.count}-items.${extension}`;
}

const targetsOf = (payload: ExportJobPayload): ExportTarget[] =>
  payload.items ?? (payload.modules ?? []).map((m) => ({ name: m.moduleName, monthId: m.monthId }));

export function exportJob(opts: { lockTtlMinutes: number; pictures: SkuPictures }): JobHandler {
  // Drawing pictures is most of an export's time. The export worker draws them off this thread and keeps
  // those it drew (an export as XLS, then as PDF, draws them once); the thumbnails the module page asked
  // this process for (the picture route's cache, 120 px as the export's) are handed to it instead.
  const drawnHere = (skus: readonly ProductDto[]): [string, Uint8Array][] => {
    const known: [string, Uint8Array][] = [];
    const seen = new Set<string>();
    for (const sku of skus) {
      const key = pictureKey(exportPictureRequest(sku));
      if (seen.has(key)) continue;
      seen.add(key);
      const png = opts.pictures.cache.get(key);
      if (png) known.push([key, png]);
    }
    return known;
  };

  return async ({ job, db, progress }) => {
    const payload = job.payload as ExportJobPayload;
    const status = await exportStatus(db, payload.exportId);
    if (!status) throw new Error(`The export ${payload.exportId} no longer exists`);
    // Stored by an earlier run that stopped before marking the job done.
    if (status === 'DONE') return { result: { exportId: payload.exportId } };
    try {
      const pdf = isPdfExport(payload.format);
      const withPictures = pdf || payload.withPhoto;
      const def = EXPORT_KIND_DEFS[payload.kind ?? 'module'];
      const targets = targetsOf(payload);
      const store = await ExportChunkStore.open(db, payload.exportId);
      // The file is written by the export worker (export-worker.ts); its bytes come back to the store here.
      const writer = exportWorker.open({ kind: payload.kind ?? 'module', pdf, columns: payload.columns, withPictures }, (chunk) => store.write(chunk));

      let reported = -1;
      const report = async (percent: number) => {
        const p = Math.floor(percent);
        if (p === reported) return;
        reported = p;
        await setExportProgress(db, payload.exportId, p);
        await progress(p);
      };

      let written: WrittenItems;
      try {
        written = await writeItems(db, def, targets, payload.status, opts.lockTtlMinutes, writer, withPictures ? drawnHere : undefined, (done) =>
          report((done / targets.length) * WRITING_SHARE),
        );
        await writer.finish();
      } finally {
        writer.abort();
      }
      await store.close();
      const fileName = exportFileName(payload.format, payload.kind ?? 'module', written);
      await storeExportDone(db, payload.exportId, { fileName, contentType: pdf ? EXPORT_CONTENT_TYPES.pdf : EXPORT_CONTENT_TYPES.xlsx });
      return { result: { exportId: payload.exportId, fileName, bytes: store.bytes }, response: `Exported ${fileName}` };
    } catch (err) {
      // What the export's status shows; the runner logs the error itself.
      await markExportFailed(db, payload.exportId, jobErrorText(err));
      throw err;
    }
  };
}

/**
 * Writes the items in the caller's order, a batch at a time, reading the next batch while this one is
 * written (reading waits on the database, writing works the CPU, in the export worker); answers what was
 * written (it names the file).
 */
async function writeItems<T>(
  db: Db,
  def: ExportKindDef<T>,
  targets: readonly ExportTarget[],
  status: ExportStatus,
  lockTtlMinutes: number,
  writer: ExportSession,
  known: ((skus: readonly ProductDto[]) => [string, Uint8Array][]) | undefined,
  onProgress: (done: number) => Promise<void>,
): Promise<WrittenItems> {
  const read = (from: number) => {
    const batch = targets.slice(from, from + def.batch);
    const units = batch.length ? def.read(db, batch, status, { lockTtlMinutes }) : Promise.resolve(new Map<string, T>());
    // Awaited in the next round; a failure while this round writes must not go unhandled meanwhile.
    units.catch(() => {});
    return { batch, units };
  };
  let first: string | undefined;
  let count = 0;
  const brands = new Set<string>();
  const monthIds = new Set<string>();
  let next = read(0);
  for (let i = 0; i < targets.length; i += def.batch) {
    const { batch, units: reading } = next;
    const units = await reading;
    next = read(i + def.batch);
    for (const [j, target] of batch.entries()) {
      const unit = units.get(targetKey(target));
      if (unit !== undefined) {
        // Written (pictures drawn, rows or pages made) in the worker, which answers once it is done, so one
        // item is in flight at a time: the progress and the memory stay those of writing on this thread.
        await writer.add(unit, known?.(def.skus(unit)));
        first ??= def.label(unit);
        count++;
        brands.add(def.brand(unit));
        monthIds.add(target.monthId);
      }
      await onProgress(i + j + 1);
      await yieldToRequests();
    }
  }
  await next.units;
  if (first === undefined) throw new Error(EXPORT_TEXTS.nothingToExport);
  return { firstLabel: first, count, brands, monthIds };
}
