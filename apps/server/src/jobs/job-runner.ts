import crypto from 'node:crypto';
import os from 'node:os';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Database, Db, Queryable } from '../db/client.js';
import { queryRows } from '../db/client.js';
import { jobs } from '../db/schema.js';

export type JobRow = typeof jobs.$inferSelect;

export interface JobContext {
  job: JobRow;
  db: Db;
  /** Records progress (0–100) and keeps the job's heartbeat fresh. */
  progress(percent: number, checkpoint?: unknown): Promise<void>;
  /**
   * Records a step's checkpoint and progress inside the step's own transaction, so the step and its
   * checkpoint commit together (a resumed job neither repeats nor skips it). Handlers never write the
   * jobs table themselves: the runner does, through this and `progress`.
   */
  checkpoint(tx: Queryable, state: unknown, percent: number): Promise<void>;
  /** The checkpoint saved by a previous attempt (resumed jobs continue from it). */
  resumeFrom: unknown;
}

export interface JobOutcome {
  result?: unknown;
  response?: string;
}

/**
 * A kind of job. Handlers must be resumable: a job interrupted mid-way runs again from its last
 * checkpoint, so every step is its own transaction and re-running a finished step changes nothing.
 */
export type JobHandler = (ctx: JobContext) => Promise<JobOutcome | void>;

export interface JobRunnerOptions {
  pollMs?: number;
  heartbeatMs?: number;
  /** A RUNNING job whose heartbeat is older than this is taken to be orphaned by a dead process. */
  staleMs?: number;
  maxAttempts?: number;
  log?: (msg: string, extra?: object) => void;
}

/**
 * The persisted job runner: jobs are rows; every server process polls for QUEUED jobs and claims one
 * with `FOR UPDATE SKIP LOCKED`, so each runs exactly once. Progress and a heartbeat are written as it
 * goes; jobs orphaned by a dead process are resumed (or failed after `maxAttempts`).
 */
export class JobRunner {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly periodic: { name: string; everyMs: number; run: () => Promise<void>; last: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private stopping = false;
  /** Jobs are run by someone else (a test's pump): waitFor neither drains itself nor gives up early. */
  private external = false;
  private idle: Promise<void> = Promise.resolve();
  private readonly opts: Required<JobRunnerOptions>;

  constructor(
    private readonly database: Database,
    opts: JobRunnerOptions = {},
  ) {
    this.opts = {
      pollMs: opts.pollMs ?? 250,
      heartbeatMs: opts.heartbeatMs ?? 2000,
      staleMs: opts.staleMs ?? 15_000,
      maxAttempts: opts.maxAttempts ?? 3,
      log: opts.log ?? (() => {}),
    };
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** A task run every `everyMs` by whichever process gets there (tasks must tolerate running twice). */
  every(name: string, everyMs: number, run: () => Promise<void>): void {
    this.periodic.push({ name, everyMs, run, last: 0 });
  }

  async enqueue(db: Db | Parameters<Parameters<Db['transaction']>[0]>[0], kind: string, payload: unknown, createdBy: string): Promise<JobRow> {
    const [row] = await db.insert(jobs).values({ kind, payload: payload ?? {}, createdBy }).returning();
    if (!row) throw new Error('job not created');
    // A started runner picks it up at once (the row may not be committed yet: polling catches it then).
    if (this.timer) this.kick();
    return row;
  }

  start(): void {
    if (this.timer) return;
    this.stopping = false;
    // With the embedded database this is the only process: anything RUNNING was cut short by a crash.
    if (this.database.kind === 'pglite') void this.recoverStale(new Date()).then(() => this.kick());
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    this.timer.unref();
  }

  /** Stops claiming work and waits for the job in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle;
  }

  /** Stops the timer and leaves running jobs to the caller (tests drive the queue with drain()). */
  async driveExternally(): Promise<void> {
    await this.stop();
    this.stopping = false;
    this.external = true;
  }

  /** Runs everything due now, until no job is left (tests use it to drive jobs deterministically). */
  async drain(): Promise<void> {
    for (;;) {
      await this.idle;
      const claimed = await this.claimAndRun();
      if (!claimed) return;
    }
  }

  /**
   * Waits until the job is DONE or FAILED (or `timeoutMs` passes) and answers its row. When the runner
   * is not started (tests), it runs the queued work itself. A stopping runner answers the row as it is
   * at once (the caller then answers with the job id), so a request in hand never holds a shutdown.
   */
  async waitFor(jobId: number, timeoutMs: number): Promise<JobRow | null> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (!this.timer && !this.stopping && !this.external) await this.drain();
      const [row] = await this.database.db.select().from(jobs).where(eq(jobs.id, jobId));
      if (!row || row.status === 'DONE' || row.status === 'FAILED') return row ?? null;
      if (Date.now() >= until || this.stopping) return row;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private kick(): void {
    if (this.running > 0 || this.stopping) return;
    this.running++;
    this.idle = (async () => {
      try {
        await this.runPeriodic();
        while (!this.stopping && (await this.claimAndRun())) {
          /* keep going while there is work */
        }
      } catch (err) {
        this.opts.log('job runner error', { err: String(err) });
      } finally {
        this.running--;
      }
    })();
  }

  private async runPeriodic(): Promise<void> {
    const now = Date.now();
    for (const task of this.periodic) {
      if (now - task.last < task.everyMs) continue;
      task.last = now;
      try {
        await task.run();
      } catch (err) {
        this.opts.log('periodic task failed', { task: task.name, err: String(err) });
      }
    }
    await this.recoverStale();
  }

  /** Requeues (or fails, past maxAttempts) RUNNING jobs whose worker stopped beating. */
  private async recoverStale(staleBefore = new Date(Date.now() - this.opts.staleMs)): Promise<void> {
    const db = this.database.db;
    await db
      .update(jobs)
      .set({ status: 'FAILED', finishedAt: new Date(), response: 'The job was interrupted too many times and was stopped.', workerId: null })
      .where(
        and(eq(jobs.status, 'RUNNING'), lt(jobs.heartbeatAt, staleBefore), ne(jobs.workerId, this.workerId), sql`${jobs.attempts} >= ${this.opts.maxAttempts}`),
      );
    await db
      .update(jobs)
      .set({ status: 'QUEUED', workerId: null })
      .where(and(eq(jobs.status, 'RUNNING'), lt(jobs.heartbeatAt, staleBefore), ne(jobs.workerId, this.workerId)));
  }

  private async claim(): Promise<JobRow | null> {
    const rows = await queryRows<{ id: string | number }>(
      this.database.db,
      sql`UPDATE jobs SET status = 'RUNNING', worker_id = ${this.workerId}, heartbeat_at = now(),
            started_at = COALESCE(started_at, now()), attempts = attempts + 1
          WHERE id = (SELECT id FROM jobs WHERE status = 'QUEUED' AND run_after <= now()
                      ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
          RETURNING id`,
    );
    const id = rows[0]?.id;
    if (id === undefined) return null;
    const [job] = await this.database.db.select().from(jobs).where(eq(jobs.id, Number(id)));
    return job ?? null;
  }

  private async claimAndRun(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    const db = this.database.db;
    const handler = this.handlers.get(job.kind);
    const mine = and(eq(jobs.id, job.id), eq(jobs.workerId, this.workerId));
    if (!handler) {
      await db.update(jobs).set({ status: 'FAILED', finishedAt: new Date(), response: `Unknown job kind ${job.kind}` }).where(mine);
      return true;
    }
    const beat = setInterval(() => {
      void db.update(jobs).set({ heartbeatAt: new Date() }).where(mine).catch(() => {});
    }, this.opts.heartbeatMs);
    beat.unref();
    const ctx: JobContext = {
      job,
      db,
      resumeFrom: (job.result as { checkpoint?: unknown } | null)?.checkpoint,
      checkpoint: async (tx, state, percent) => {
        await tx
          .update(jobs)
          .set({ progress: Math.max(0, Math.min(100, Math.round(percent))), heartbeatAt: new Date(), result: { checkpoint: state } })
          .where(mine);
      },
      progress: async (percent, checkpoint) => {
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        await db
          .update(jobs)
          .set({ progress: p, heartbeatAt: new Date(), ...(checkpoint !== undefined ? { result: { checkpoint } } : {}) })
          .where(mine);
      },
    };
    try {
      const outcome = (await handler(ctx)) ?? {};
      await db
        .update(jobs)
        .set({ status: 'DONE', progress: 100, finishedAt: new Date(), result: outcome.result ?? null, response: outcome.response ?? null })
        .where(mine);
    } catch (err) {
      this.opts.log('job failed', { jobId: job.id, kind: job.kind, err: String(err) });
      await db
        .update(jobs)
        .set({ status: 'FAILED', finishedAt: new Date(), response: err instanceof Error ? err.message : String(err) })
        .where(mine);
    } finally {
      clearInterval(beat);
    }
    return true;
  }
}
