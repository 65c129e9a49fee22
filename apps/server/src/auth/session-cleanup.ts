/**
 * A logged-out token is kept in `revoked_tokens` until it expires: after that the signature check refuses it on
 * its own and the row is useless. A periodic step of the job runner removes those rows, so the table holds at
 * most the logouts of the last token lifetime (TOKEN_TTL_MINUTES). Any process may run the step; running it twice
 * removes nothing more.
 */
import type { Db } from '../db/client.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { deleteRevocationsBefore } from './revoked-tokens.repository.js';

/** How often the cleanup runs. */
const REVOCATION_CLEANUP_STEP_MS = 60 * 60_000;

/**
 * How long a row outlives its token's expiry: each process checks expiry with its own clock, so a process whose
 * clock runs a few minutes behind the one cleaning up must still find the row.
 */
const REVOCATION_KEPT_AFTER_EXPIRY_MS = 10 * 60_000;

/** Removes the revocations of tokens expired (by more than the margin) at `now`; answers how many. */
export function removeExpiredRevocations(db: Db, now = new Date()): Promise<number> {
  return deleteRevocationsBefore(db, new Date(now.getTime() - REVOCATION_KEPT_AFTER_EXPIRY_MS));
}

/** The cleanup step, on the job runner. */
export function registerSessionCleanup(jobs: JobRunner, db: Db): void {
  jobs.every('revoked-tokens-cleanup', REVOCATION_CLEANUP_STEP_MS, async () => {
    await removeExpiredRevocations(db);
  });
}
