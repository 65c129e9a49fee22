/**
 * The release loader (issue 15, docs/RELEASE-FILES.md): the four files and the optional Reference Data
 * file are read and checked before anything else is merged, and the whole load is ONE transaction —
 * either every file is in, or nothing changed. A dry run is the same load rolled back (issue 33). A job runs it (`onProgress` 0–100); routes and upload rows are the caller's.
 */
import type { Db } from '../../../db/client.js';
import { badRequest, isUniqueViolation, notFound } from '../../../lib/errors.js';
import { errorLine, FORMATS, LOADER_FILE_KINDS, MAX_LISTED_ERRORS, type LoaderFileKind, type LoadError, type LoadType, type ReleaseFileKind } from './formats.js';
import type { FileSource } from './read-records.js';
import { createStaging, findRelease, mergeItems, mergeMasterData, MODULE_LINES_KEY, MODULE_REPEATS, RepeatedModuleLine, rollbackToMergeStart, runChecks, startMerge, type MergeCounts } from './release-loader.repository.js';
import { stageFast } from './fast-stage.repository.js';
import { recordVersionsInBulk, recordWrittenVersions } from '../../../items/lifecycle/item-versions.repository.js';
import { stageFile } from './stage-file.js';
import { createMonths, mergeReference, referenceChecks, type ReferenceCounts } from './reference-rows.repository.js';
import { previewItems, type ItemPreview } from './load-preview.repository.js';

export interface LoadRequest {
  releaseId: string;
  type: LoadType;
  /** The four files: Module Composition, Cluster Composition, Sku Registry, Customer Segmentation; and Reference Data, optional. */
  files: Record<ReleaseFileKind, FileSource> & { reference?: FileSource | undefined };
  /** Run the whole load in its transaction, then roll it back: the result says what it would do (with `preview`). */
  dryRun?: boolean;
  /** Who loads (created_by / updated_by of the written items). */
  username: string;
  /**
   * Progress 0–100, called when the whole percentage moves. Not awaited on purpose: it is called while
   * the load's transaction is open, and on the embedded database a write from outside that transaction
   * would wait for it; the caller queues its own progress write.
   */
  onProgress?: (percent: number) => void;
  /** From how many module lines the lines are written as a bulk rewrite (default BULK_MIN_LINES; tests lower it). */
  bulkMinLines?: number;
  /** Stage every file the careful way (stage-file.ts), never the fast one (tests compare the two). */
  careful?: boolean;
  /** Leave the module lines' foreign keys to PostgreSQL's check of each line, never vouch for them once (tests compare the two). */
  rowKeyChecks?: boolean;
}

export type LoadResult =
  | {
      ok: true;
      /** Rows read per file (no `reference` without that file). */
      rows: Partial<Record<LoaderFileKind, number>> & Record<ReleaseFileKind, number>;
      /** How each file was staged: 'fast' (COPY, fast-stage.ts) or 'careful' (row by row, stage-file.ts). */
      staged: Partial<Record<LoaderFileKind, 'fast' | 'careful'>>;
      /** Codes repaired where their row proved them (code-columns.ts): `registry.csv: 432 colour codes repaired from skuCode`. */
      repairs: string[];
      merged: MergeCounts;
      /** The Reference Data rows created and updated per kind (null without that file). */
      reference: ReferenceCounts | null;
      /** The months the files named that did not exist, created in the release. */
      monthsCreated: string[];
      /** A dry run: nothing was kept; `preview` says what the items would become. */
      dryRun: boolean;
      preview?: ItemPreview;
    }
  | {
      ok: false;
      /** Every refusal found. */
      errorCount: number;
      /** The first MAX_LISTED_ERRORS, as `file, row, column: reason`, by file (registry, segmentation, modules, clusters), row and column. */
      errors: string[];
    };

/** Thrown inside the transaction to roll it back when the files are refused. */
class Refused extends Error {
  constructor(readonly result: Extract<LoadResult, { ok: false }>) {
    super('release files refused');
  }
}

/** Thrown inside the transaction to roll back a dry run that went through. */
class DryRunDone extends Error {
  constructor(readonly result: Extract<LoadResult, { ok: true }>) {
    super('dry run rolled back');
  }
}

/** Staging takes the first 70% of the progress (by bytes read), the checks 5%, the merges the rest. */
const STAGING_SHARE = 70;

export async function loadRelease(db: Db, request: LoadRequest): Promise<LoadResult> {
  const release = await findRelease(db, request.releaseId);
  if (!release) throw notFound(`The release ${request.releaseId} does not exist`);
  if (release.status === 'CLOSED') throw badRequest(`The release ${request.releaseId} is closed`);

  let lastProgress = -1;
  const progress = (percent: number) => {
    const p = Math.max(0, Math.min(100, Math.floor(percent)));
    if (p <= lastProgress) return;
    lastProgress = p;
    request.onProgress?.(p);
  };
  progress(0);

  const kinds = LOADER_FILE_KINDS.filter((kind) => request.files[kind] !== undefined);
  const sourceOf = (kind: LoaderFileKind) => request.files[kind]!;
  const totalBytes = Math.max(1, kinds.reduce((sum, kind) => sum + sourceOf(kind).size, 0));
  const fileOrder = new Map(LOADER_FILE_KINDS.map((kind, i) => [kind, i]));
  const errors: (LoadError & { order: number; col: number })[] = [];
  const errorCounts = new Map<LoaderFileKind, number>();
  let errorCount = 0;
  const report = (kind: LoaderFileKind) => (row: number, column: string, reason: string) => {
    errorCount++;
    const n = (errorCounts.get(kind) ?? 0) + 1;
    errorCounts.set(kind, n);
    // Each file's errors arrive in row order: past its first MAX_LISTED_ERRORS none can be among the first overall.
    if (n > MAX_LISTED_ERRORS) return;
    const col = FORMATS[kind].columns.findIndex((c) => c.name === column);
    errors.push({ file: sourceOf(kind).name, row, column, reason, order: fileOrder.get(kind)!, col });
  };

  try {
    return await db.transaction(async (tx) => {
      // Versions of what the load changes are recorded set-wise at its end (docs/versions.md).
      await recordVersionsInBulk(tx, 'release', request.username);
      await createStaging(tx);
      const rows = {} as Record<LoaderFileKind, number>;
      const ways: Partial<Record<LoaderFileKind, 'fast' | 'careful'>> = {};
      const repairs: string[] = [];
      let bytesBefore = 0;
      let broken = false;
      // Reference data, then registry and segmentation: the module and cluster files refer to them.
      for (const kind of kinds) {
        const source = sourceOf(kind);
        const onBytes = (bytes: number) => progress((STAGING_SHARE * (bytesBefore + Math.min(bytes, source.size))) / totalBytes);
        // The fast way when it can (PostgreSQL, a plain CSV file); else, or when the file has anything to say, the careful way.
        // The Reference Data file is small: always the careful way.
        const fast = request.careful || kind === 'reference' ? null : await stageFast(tx, kind, source, onBytes);
        const staged = fast !== null ? { rows: fast, broken: false } : await stageFile(tx, kind, source, report(kind), onBytes);
        rows[kind] = staged.rows;
        ways[kind] = fast !== null ? 'fast' : 'careful';
        for (const [label, n] of Object.entries('repairs' in staged ? staged.repairs : {})) repairs.push(`${source.name}: ${n} ${label}`);
        broken ||= staged.broken;
        bytesBefore += source.size;
      }
      progress(STAGING_SHARE);
      const check = async (checks?: Parameters<typeof runChecks>[3]) => {
        const checked = await runChecks(tx, request.releaseId, request.type, checks);
        errorCount += checked.total;
        for (const hit of checked.hits) {
          const col = FORMATS[hit.kind].columns.findIndex((c) => c.name === hit.column);
          errors.push({ file: sourceOf(hit.kind).name, row: hit.row, column: hit.column, reason: hit.reason, order: fileOrder.get(hit.kind)!, col });
        }
      };
      const refuse = () => {
        errors.sort((a, b) => a.order - b.order || a.row - b.row || a.col - b.col);
        return new Refused({ ok: false, errorCount, errors: errors.slice(0, MAX_LISTED_ERRORS).map(errorLine) });
      };
      // A file that could not be read through would make every reference to it look wrong: its own errors say enough.
      // The reference rows are checked and written first, so that the other files' checks see them; with a refused
      // Reference Data file the others' references are not checked (they would name its codes again).
      let reference: ReferenceCounts | null = null;
      if (!broken && request.files.reference) {
        await check(referenceChecks());
        if (errorCount === 0) reference = await mergeReference(tx, request.username);
      }
      if (!broken && (errorCount === 0 || !request.files.reference)) {
        await check();
        // Repeated module lines are left to the merge (the lines' key, or its count of the lines: RepeatedModuleLine), unless the files are refused anyway.
        if (errorCount > 0) await check([MODULE_REPEATS]);
      }
      if (errorCount > 0) throw refuse();
      progress(75);
      const preview = request.dryRun ? await previewItems(tx, request.releaseId, request.type) : undefined;
      await startMerge(tx);
      try {
        const master = await mergeMasterData(tx);
        progress(82);
        const monthsCreated = await createMonths(tx, request.releaseId);
        const items = await mergeItems(tx, request.releaseId, request.type, request.username, async (step, of) => progress(82 + (17 * step) / of), request.bulkMinLines, request.rowKeyChecks);
        await recordWrittenVersions(tx);
        const result = { ok: true as const, rows, staged: ways, repairs, merged: { ...master, ...items }, reference, monthsCreated, dryRun: request.dryRun === true, ...(preview ? { preview } : {}) };
        if (request.dryRun) throw new DryRunDone(result);
        return result;
      } catch (error) {
        if (error instanceof DryRunDone) throw error;
        if (!(error instanceof RepeatedModuleLine) && !isUniqueViolation(error, MODULE_LINES_KEY)) throw error;
        // A module's SKU on two rows: nothing of the merge stays; the check names the rows.
        await rollbackToMergeStart(tx);
        await check([MODULE_REPEATS]);
        if (errorCount === 0) throw error;
        throw refuse();
      }
    });
  } catch (error) {
    if (error instanceof Refused || error instanceof DryRunDone) return error.result;
    throw error;
  } finally {
    if (lastProgress < 100) progress(100);
  }
}
