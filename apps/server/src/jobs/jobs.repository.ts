import { and, eq, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { queryRows } from '../db/client.js';
import { jobs, jobSteps } from '../db/schema.js';

export type JobRecord = typeof jobs.$inferSelect;

/** A job as claimed by one worker: writes through it touch the row only while that worker holds it. */
export interface OwnedJob {
  id: number;
  workerId: string;
}

const owned = (job: OwnedJob) => and(eq(jobs.id, job.id), eq(jobs.workerId, job.workerId));

export async function findJob(db: Queryable, id: number): Promise<JobRecord | null> {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  return job ?? null;
}

/** Inserts a QUEUED job and answers its row. */
export async function insertJob(db: Queryable, job: { kind: string; payload: unknown; createdBy: string }): Promise<JobRecord | undefined> {
  const [row] = await db.insert(jobs).values(job).returning();
  return row;
}

/**
 * The RUNNING jobs whose heartbeat is older than `staleBefore` and that no worker is running: those of other
 * workers, and those of `workerId` itself that are not in its hands (`inHand`), e.g. one whose failure could
 * not be recorded. A job in hand is never taken from its own worker.
 */
const orphaned = (staleBefore: Date, workerId: string, inHand: readonly number[]) =>
  and(
    eq(jobs.status, 'RUNNING'),
    lt(jobs.heartbeatAt, staleBefore),
    inHand.length ? or(ne(jobs.workerId, workerId), isNull(jobs.workerId), notInArray(jobs.id, [...inHand])) : undefined,
  );

/** Fails the orphaned RUNNING jobs (see `orphaned`) that used up `maxAttempts`. */
export async function failWornOutJobs(db: Queryable, staleBefore: Date, workerId: string, inHand: readonly number[], maxAttempts: number): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'FAILED', finishedAt: new Date(), response: 'The job was interrupted too many times and was stopped.', workerId: null })
    .where(and(orphaned(staleBefore, workerId, inHand), sql`${jobs.attempts} >= ${maxAttempts}`));
}

/** Requeues the orphaned RUNNING jobs (see `orphaned`). */
export async function requeueStaleJobs(db: Queryable, staleBefore: Date, workerId: string, inHand: readonly number[]): Promise<void> {
  await db.update(jobs).set({ status: 'QUEUED', workerId: null }).where(orphaned(staleBefore, workerId, inHand));
}

/**
 * Claims the oldest due QUEUED job for `workerId` (`FOR UPDATE SKIP LOCKED`: each job once), of a kind other than
 * `skipKinds`, and answers its row.
 */
export async function claimNextJob(db: Queryable, workerId: string, skipKinds: readonly string[] = []): Promise<JobRecord | null> {
  // Kinds are the runner's own names (letters, digits, `_`, `-`, `.`: JobRunner.register checks), so the literal is safe.
  const skip = skipKinds.length ? sql` AND kind <> ALL(${`{${skipKinds.join(',')}}`}::text[])` : sql``;
  const rows = await queryRows<{ id: string | number }>(
    db,
    sql`UPDATE jobs SET status = 'RUNNING', worker_id = ${workerId}, heartbeat_at = now(),
          started_at = COALESCE(started_at, now()), attempts = attempts + 1
        WHERE id = (SELECT id FROM jobs WHERE status = 'QUEUED' AND run_after <= now()${skip}
                    ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING id`,
  );
  const id = rows[0]?.id;
  if (id === undefined) return null;
  return findJob(db, Number(id));
}

/** Refreshes the heartbeat of a job its worker still holds. */
export async function beatJob(db: Queryable, job: OwnedJob): Promise<void> {
  await db.update(jobs).set({ heartbeatAt: new Date() }).where(owned(job));
}

/** Records progress (and, when given, the checkpoint as the job's result) and refreshes the heartbeat. */
export async function setJobProgress(db: Queryable, job: OwnedJob, progress: number, result?: { checkpoint: unknown }): Promise<void> {
  await db
    .update(jobs)
    .set({ progress, heartbeatAt: new Date(), ...(result !== undefined ? { result } : {}) })
    .where(owned(job));
}

/** Marks a job DONE at 100 % with its outcome. */
export async function finishJob(db: Queryable, job: OwnedJob, outcome: { result: unknown; response: string | null }): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'DONE', progress: 100, finishedAt: new Date(), result: outcome.result, response: outcome.response })
    .where(owned(job));
}

/** Marks a job FAILED with the reason as its response. */
export async function failJob(db: Queryable, job: OwnedJob, response: string): Promise<void> {
  await db.update(jobs).set({ status: 'FAILED', finishedAt: new Date(), response }).where(owned(job));
}

/** Records the outcomes of steps of a job, in the transaction of those steps (job_steps). */
export async function recordJobSteps(db: Queryable, jobId: number, steps: readonly { step: number; outcome: unknown }[]): Promise<void> {
  if (steps.length) await db.insert(jobSteps).values(steps.map((s) => ({ jobId, step: s.step, outcome: s.outcome })));
}

/** The recorded step outcomes of a job, in step order. */
export async function jobStepOutcomes(db: Queryable, jobId: number): Promise<{ step: number; outcome: unknown }[]> {
  return db.select({ step: jobSteps.step, outcome: jobSteps.outcome }).from(jobSteps).where(eq(jobSteps.jobId, jobId)).orderBy(jobSteps.step);
}
