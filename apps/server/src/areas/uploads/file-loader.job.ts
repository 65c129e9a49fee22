/**
 * Upload Files (FILE_LOADER, docs/IMPORTS.md "Upload Files"): the job streams the stored files (four, and
 * Reference Data when sent)
 * (upload_files, their bytes in upload_file_chunks) into the release loader (docs/RELEASE-FILES.md) on them. The load is one
 * transaction, so a job resumed after a crash simply loads again from the start.
 *
 * Progress: the loader reports it from inside its transaction. On the embedded database (one
 * connection) a write awaited there would wait for that very transaction, so the job only records the
 * latest percent and a timer writes it, one write at a time, never awaited by the load.
 */
import { FILE_LOADER_TEXTS, type FileLoaderType } from '@bo/shared/uploads';
import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import { FORMATS, LOADER_FILE_KINDS, REFERENCE_ROW_KINDS, RELEASE_FILE_KINDS, type LoaderFileKind, type ReleaseFileKind } from './release-loader/formats.js';
import type { FileSource } from './release-loader/read-records.js';
import { loadRelease, type LoadResult } from './release-loader/release-loader.service.js';
import { chunkSource, uploadFilesOfJob } from './uploads.repository.js';


/** The job's payload (besides uploadType and requestId). */
export interface FileLoaderPayload {
  releaseId: string;
  type: FileLoaderType;
  /** A preview: the whole load, rolled back (docs/IMPORTS.md "Upload Files"). */
  dryRun?: boolean;
  /** An Apply: the preview upload whose files this upload copied. */
  appliedFrom?: number;
}

/** How often the latest progress is written while the load runs. */
const PROGRESS_EVERY_MS = 500;

/** Records the latest percent; a timer writes it (one write in flight at most). `stop` waits for the last write. */
export function progressWriter(ctx: Pick<JobContext, 'progress'>, everyMs = PROGRESS_EVERY_MS) {
  let latest = 0;
  let written = -1;
  let inFlight: Promise<void> | null = null;
  const flush = () => {
    if (inFlight || latest === written) return;
    const percent = latest;
    inFlight = ctx
      .progress(percent)
      .then(
        () => {
          written = percent;
        },
        () => {},
      )
      .finally(() => {
        inFlight = null;
      });
  };
  const timer = setInterval(flush, everyMs);
  timer.unref();
  return {
    set(percent: number) {
      latest = percent;
    },
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}

const LABELS: Record<LoaderFileKind, string> = Object.fromEntries(LOADER_FILE_KINDS.map((k) => [k, FORMATS[k].title])) as Record<LoaderFileKind, string>;

const written = (total: number, created: number) => `${total} (${created} new, ${total - created} updated)`;
const named = (removed: { count: number; names: string[] }) =>
  removed.count === 0 ? '' : `: ${removed.names.join(', ')}${removed.count > removed.names.length ? ` and ${removed.count - removed.names.length} more` : ''}`;

/**
 * The response of a load: 'The files have been uploaded' (a preview: FILE_LOADER_TEXTS.previewed) then the
 * counts, ';'-separated: rows per file, reference rows per kind, months created, master data, items.
 */
export function loadedResponse(result: Extract<LoadResult, { ok: true }>): string {
  const m = result.merged;
  const reference = result.reference;
  const p = result.preview;
  return [
    result.dryRun ? FILE_LOADER_TEXTS.previewed : FILE_LOADER_TEXTS.uploaded,
    ...LOADER_FILE_KINDS.filter((k) => result.rows[k] !== undefined).map((k) => `${LABELS[k]}: ${result.rows[k]} row(s)`),
    ...(reference ? [`Reference data: ${REFERENCE_ROW_KINDS.map((k) => `${k} ${reference[k].created} new, ${reference[k].updated} updated`).join(', ')}`] : []),
    ...(result.repairs.length ? [`Repaired: ${result.repairs.join(', ')}`] : []),
    `Months created: ${result.monthsCreated.length}${result.monthsCreated.length ? ` (${result.monthsCreated.join(', ')})` : ''}`,
    `SKUs: ${written(m.skus, m.created.skus)}, stores: ${written(m.stores, m.created.stores)}, stars customers: ${written(m.starsCustomers, m.created.starsCustomers)}, segmentations: ${written(m.segmentations, m.created.segmentations)}`,
    p
      ? `Modules: ${p.modules.created} new, ${p.modules.changed} changed, ${p.modules.unchanged} unchanged (${m.moduleLines} SKU line(s)), clusters: ${p.clusters.created} new, ${p.clusters.changed} changed, ${p.clusters.unchanged} unchanged (${m.clusterLines} line(s))`
      : `Modules: ${m.modules} (${m.moduleLines} SKU line(s)), clusters: ${m.clusters} (${m.clusterLines} line(s))`,
    p
      ? `Removed (massive): ${p.removedModules.count} module(s)${named(p.removedModules)}, ${p.removedClusters.count} cluster(s)${named(p.removedClusters)}`
      : `Removed (massive): ${m.removedModules} module(s), ${m.removedClusters} cluster(s)`,
  ].join(';');
}

/** The response of refused files: the count, then the listed errors (';'-separated). */
function refusedResponse(result: Extract<LoadResult, { ok: false }>): string {
  const more = result.errorCount - result.errors.length;
  return [FILE_LOADER_TEXTS.refused(result.errorCount), ...result.errors, ...(more > 0 ? [FILE_LOADER_TEXTS.moreErrors(more)] : [])].join(';');
}

/** Refused files: the job FAILS (the upload reads ERROR) with the refusals as its response. */
class FilesRefused extends Error {}

export function fileLoaderJob(): JobHandler {
  return async (ctx) => {
    const { releaseId, type, dryRun } = ctx.job.payload as FileLoaderPayload;
    const stored = new Map((await uploadFilesOfJob(ctx.db, ctx.job.id)).map((f) => [f.field, f]));
    const files = {} as Record<ReleaseFileKind, FileSource> & { reference?: FileSource };
    for (const kind of RELEASE_FILE_KINDS) {
      const file = stored.get(FORMATS[kind].field);
      if (!file) throw new Error(`The stored ${LABELS[kind]} file is missing`);
      files[kind] = chunkSource(ctx.db, file);
    }
    const reference = stored.get(FORMATS.reference.field);
    if (reference) files.reference = chunkSource(ctx.db, reference);
    const progress = progressWriter(ctx);
    let result: LoadResult;
    try {
      result = await loadRelease(ctx.db, { releaseId, type, files, dryRun: dryRun === true, username: ctx.job.createdBy ?? 'system', onProgress: (p) => progress.set(p) });
    } finally {
      await progress.stop();
    }
    if (!result.ok) throw new FilesRefused(refusedResponse(result));
    return { result, response: loadedResponse(result) };
  };
}
