/**
 * Export files are kept `EXPORT_RETENTION_DAYS` (contract §7): a periodic step of the job runner
 * removes older exports, row and file, so their download answers 404 and the history no longer
 * lists them. Any process may run the step; running it twice removes nothing more.
 */
import type { Db } from '../../db/client.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import type { SkuPictures } from '../../lib/images/sku-pictures.js';
import { exportJob } from './export.job.js';
import { deleteExportsBefore } from './exports.repository.js';
import { EXPORT_JOB } from '../../jobs/job-kinds.js';

/** How often the retention step runs. */
const EXPORT_RETENTION_STEP_MS = 60 * 60_000;

const DAY_MS = 24 * 60 * 60_000;

/** Removes the exports made more than `retentionDays` before `now`; answers how many. */
export function removeExpiredExports(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  return deleteExportsBefore(db, new Date(now.getTime() - retentionDays * DAY_MS));
}

/** The export job and the retention step, on the job runner. */
export function registerExportJobs(jobs: JobRunner, db: Db, opts: { lockTtlMinutes: number; pictures: SkuPictures; retentionDays: number }): void {
  // One export at a time: the process's one export worker holds a photo export's workbook, under a capped heap.
  jobs.register(EXPORT_JOB, exportJob({ lockTtlMinutes: opts.lockTtlMinutes, pictures: opts.pictures }), { alone: true });
  jobs.every('export-retention', EXPORT_RETENTION_STEP_MS, async () => {
    await removeExpiredExports(db, opts.retentionDays);
  });
}
