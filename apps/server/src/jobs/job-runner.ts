import crypto from 'node:crypto';
import os from 'node:os';
import type { Database, Db, Queryable } from '../db/client.js';
import {
  beatJob,
  claimNextJob,
  failJob,
  failWornOutJobs,
  findJob,
  finishJob,
  insertJob,
  requeueStaleJobs,
  setJobProgress,
  type JobRecord,
  type OwnedJob,
} from './jobs.repository.js';
import { cleanJobText, JOB_TEXTS, jobErrorText } from './job-text.js';

type JobRow = JobRecord;

export interface JobContext {
  job: JobRow;
  /**
   * The database handle of the job's work: the background one (client.ts `Database.background`), whose PostgreSQL
   * backends yield the cores to the planners' calls. The runner's own bookkeeping (claim, heartbeat, progress) stays
   * on the main pool, so a job's heartbeat is never late for its priority.
   */
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
  /**
   * Logs a problem the handler deals with itself (a step that failed and was reported), with the error as
   * `err`: its detail (a database error's statement and parameters) goes to the log, never to the job's
   * response, which says what `jobErrorText` gives (job-text.ts).
   */
  log(msg: string, extra?: object): void;
}

interface JobOutcome {
  result?: unknown;
  response?: string;
}

/**
 * A kind of job. Handlers must be resumable: a job interrupted mid-way runs again from its last
 * checkpoint, so every step is its own transaction and re-running a finished step changes nothing.
 */
export type JobHandler = (ctx: JobContext) => Promise<JobOutcome | void>;

interface JobRunnerOptions {
  pollMs?: number;
  heartbeatMs?: number;
  /** A RUNNING job whose heartbeat is older than this is taken to be orphaned by a dead process. */
  staleMs?: number;
  maxAttempts?: number;
  log?: (msg: string, extra?: object) => void;
  /** Notes at info level: a job started (its id, kind and attempt). */
  info?: (msg: string, extra?: object) => void;
  /**
   * How many jobs this runner runs at once (default 1). The job process of a server with WORKERS > 1 runs WORKERS at
   * once, as many as the WORKERS processes that each ran one did before it (server.ts).
   */
  concurrency?: number;
}

/**
 * Lets requests that arrived during a job's step reach the database before the job's next step: the
 * embedded database has one connection, and a job that chains its transactions back to back would keep
 * every other caller (the progress polls too) waiting until it ends. Jobs call it between steps.
 */
export const yieldBetweenSteps = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A progress as a whole percent between 0 and 100. */
const clampPercent = (percent: number): number => Math.max(0, Math.min(100, Math.round(percent)));

/**
 * The persisted job runner: jobs are rows; a runner polls for QUEUED jobs and claims one with
 * `FOR UPDATE SKIP LOCKED`, so each runs exactly once whatever the number of runners. Progress and a heartbeat are
 * written as it goes; jobs orphaned by a dead process are resumed (or failed after `maxAttempts`). With WORKERS > 1
 * one process of its own runs the jobs (server.ts); the processes that answer HTTP calls enqueue and wait
 * (`runElsewhere`).
 */
export class JobRunner {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private readonly handlers = new Map<string, JobHandler>();
  /** Kinds this runner runs one at a time whatever its concurrency (`register`'s `alone`), and those running now. */
  private readonly aloneKinds = new Set<string>();
  private readonly aloneRunning = new Set<string>();
  private readonly periodic: { name: string; everyMs: number; run: () => Promise<void>; last: number }[] = [];
  /** When the orphaned jobs were last looked for (recoverStale): at the first poll, then every staleMs / 5. */
  private lastRecovery = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The loops running now: each runs the periodic tasks that are due, claims a job and runs it (spawn). */
  private readonly loops = new Map<object, Promise<void>>();
  /** A loop is looking for a job (claiming): at most one looks at a time, so an idle poll is one statement. */
  private looking = false;
  private periodicBusy = false;
  /** The jobs this runner is running now: its own RUNNING jobs that are not here are orphans (recoverStale). */
  private readonly inHand = new Set<number>();
  private stopping = false;
  /** Jobs are run by someone else (the job process, or a test's pump): waitFor neither drains itself nor gives up early. */
  private external = false;
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
      info: opts.info ?? (() => {}),
      concurrency: Math.max(1, opts.concurrency ?? 1),
    };
  }

  /** Resolves once no loop of this runner is running (a loop that starts meanwhile is not waited for). */
  private get idle(): Promise<void> {
    return Promise.all([...this.loops.values()]).then(() => undefined);
  }

  /**
   * A kind's handler. `alone`: at most one job of the kind runs at a time in this runner, whatever its concurrency (an
   * export holds its workbook in the one export worker of the process, whose heap is capped: exports.md).
   */
  register(kind: string, handler: JobHandler, opts: { alone?: boolean } = {}): void {
    if (!/^[A-Za-z0-9_.-]+$/.test(kind)) throw new Error(`job kind ${JSON.stringify(kind)}: letters, digits, _, - and . only`);
    this.handlers.set(kind, handler);
    if (opts.alone) this.aloneKinds.add(kind);
  }

  /** A task run every `everyMs` by whichever process gets there (tasks must tolerate running twice). */
  every(name: string, everyMs: number, run: () => Promise<void>): void {
    this.periodic.push({ name, everyMs, run, last: 0 });
  }

  async enqueue(db: Queryable, kind: string, payload: unknown, createdBy: string): Promise<JobRow> {
    const row = await insertJob(db, { kind, payload: payload ?? {}, createdBy });
    if (!row) throw new Error('job not created');
    // A started runner picks it up at once (the row may not be committed yet: polling catches it then). Where another
    // process runs the jobs, its poll finds the row.
    if (this.timer) this.spawn();
    return row;
  }

  start(): void {
    if (this.timer) return;
    this.stopping = false;
    // With the embedded database this is the only process: anything RUNNING was cut short by a crash.
    if (this.database.kind === 'pglite') void this.recoverStale(new Date()).then(() => this.spawn());
    this.timer = setInterval(() => this.spawn(), this.opts.pollMs);
    this.timer.unref();
  }

  /** Stops claiming work and waits for the job in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle;
  }

  /**
   * Jobs are run by another process (the job process of a server with WORKERS > 1, server.ts): this runner enqueues,
   * and waitFor polls the job's row until that process has finished it. Nothing is claimed here, periodic tasks included.
   */
  runElsewhere(): void {
    if (this.timer) throw new Error('runElsewhere: this runner is started');
    this.external = true;
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
      const row = await findJob(this.database.db, jobId);
      if (!row || row.status === 'DONE' || row.status === 'FAILED') return row ?? null;
      if (Date.now() >= until || this.stopping) return row;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Starts a loop unless one is looking for a job already or `concurrency` loops are running. A loop runs the periodic
   * tasks that are due (unless another loop is at it), claims one job and runs it; once it has claimed one it starts
   * the next loop, which looks for the next job meanwhile, and once its job is done it starts another.
   */
  private spawn(): void {
    if (this.stopping || this.looking || this.loops.size >= this.opts.concurrency) return;
    this.looking = true;
    let lookingHere = true;
    let claimed = false;
    const token = {};
    const loop = (async () => {
      await Promise.resolve(); // the loop is in the map before its first step
      try {
        if (!this.periodicBusy) {
          this.periodicBusy = true;
          try {
            await this.runPeriodic();
          } finally {
            this.periodicBusy = false;
          }
        }
        const job = this.stopping ? null : await claimNextJob(this.database.db, this.workerId, [...this.aloneRunning]);
        this.looking = lookingHere = false;
        if (!job) return;
        claimed = true;
        this.spawn();
        await this.runClaimed(job);
      } catch (err) {
        this.opts.log('job runner error', { err: String(err) });
      } finally {
        if (lookingHere) this.looking = false; // failed before its claim was answered
        this.loops.delete(token);
        if (claimed) this.spawn();
      }
    })();
    this.loops.set(token, loop);
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
    // A job is orphaned once its heartbeat is staleMs old: looking for orphans every poll (4 times a second) found
    // them no sooner than every staleMs / 5, and its two statements were two thirds of an idle process's work
    // (docs/performance.md "Huge pages, and an idle server's work").
    if (now - this.lastRecovery >= Math.max(this.opts.pollMs, this.opts.staleMs / 5)) {
      this.lastRecovery = now;
      await this.recoverStale();
    }
  }

  /**
   * Requeues (or fails, past maxAttempts) RUNNING jobs that stopped beating and that nobody runs: other
   * workers' (a dead process), and this runner's own that are not in its hands (a failure it could not record).
   */
  private async recoverStale(staleBefore = new Date(Date.now() - this.opts.staleMs)): Promise<void> {
    const db = this.database.db;
    const inHand = [...this.inHand];
    await failWornOutJobs(db, staleBefore, this.workerId, inHand, this.opts.maxAttempts);
    await requeueStaleJobs(db, staleBefore, this.workerId, inHand);
  }

  /**
   * Records a job's failure: the error as jobErrorText gives it (never a database error's SQL or
   * parameters; those go to the log). When that write fails, a plain message instead; when that fails too,
   * the job is left RUNNING without a heartbeat and recoverStale requeues (or fails) it.
   */
  private async recordFailure(job: JobRow, mine: OwnedJob, err: unknown): Promise<void> {
    const db = this.database.db;
    this.opts.log('job failed', { jobId: job.id, kind: job.kind, err });
    try {
      await failJob(db, mine, jobErrorText(err));
      return;
    } catch (first) {
      this.opts.log('job failure not recorded', { jobId: job.id, kind: job.kind, err: first });
    }
    try {
      await failJob(db, mine, JOB_TEXTS.failureNotRecorded);
    } catch (second) {
      this.opts.log('job failure not recorded', { jobId: job.id, kind: job.kind, err: second });
    }
  }

  private async claimAndRun(): Promise<boolean> {
    const job = await claimNextJob(this.database.db, this.workerId);
    if (!job) return false;
    await this.runClaimed(job);
    return true;
  }

  private async runClaimed(job: JobRow): Promise<void> {
    this.inHand.add(job.id);
    const alone = this.aloneKinds.has(job.kind);
    if (alone) this.aloneRunning.add(job.kind);
    try {
      await this.run(job);
    } finally {
      this.inHand.delete(job.id);
      if (alone) this.aloneRunning.delete(job.kind);
    }
  }

  private async run(job: JobRow): Promise<void> {
    const db = this.database.db;
    const handler = this.handlers.get(job.kind);
    const mine: OwnedJob = { id: job.id, workerId: this.workerId };
    if (!handler) {
      await this.recordFailure(job, mine, new Error(`Unknown job kind ${job.kind}`));
      return;
    }
    this.opts.info('job started', { jobId: job.id, kind: job.kind, attempts: job.attempts });
    const beat = setInterval(() => {
      void beatJob(db, mine).catch(() => {});
    }, this.opts.heartbeatMs);
    beat.unref();
    const ctx: JobContext = {
      job,
      db: this.database.background,
      log: (msg, extra) => this.opts.log(msg, { jobId: job.id, kind: job.kind, ...extra }),
      resumeFrom: (job.result as { checkpoint?: unknown } | null)?.checkpoint,
      checkpoint: async (tx, state, percent) => {
        await setJobProgress(tx, mine, clampPercent(percent), { checkpoint: state });
      },
      progress: async (percent, checkpoint) => {
        await setJobProgress(db, mine, clampPercent(percent), checkpoint !== undefined ? { checkpoint } : undefined);
      },
    };
    try {
      let outcome: JobOutcome;
      try {
        outcome = (await handler(ctx)) ?? {};
      } catch (err) {
        await this.recordFailure(job, mine, err);
        return;
      }
      try {
        await finishJob(db, mine, { result: outcome.result ?? null, response: outcome.response == null ? null : cleanJobText(outcome.response) });
      } catch (err) {
        // The work is done but its outcome cannot be written (e.g. a result the database refuses).
        await this.recordFailure(job, mine, err);
      }
    } finally {
      clearInterval(beat);
    }
  }
}
