/**
 * `WORKERS` server processes on one port (Node's cluster module; docs/operations.md "Several
 * processes"), and one more that runs the jobs. Every HTTP process serves every request: sessions, locks and jobs
 * live in the database, migrations and first-start data are serialised by advisory locks. The job process answers no
 * HTTP call: it claims the jobs (SKIP LOCKED, so nothing runs twice), WORKERS at once, and runs them at the
 * background priority in every thread, so a job's JavaScript never holds a planner's call on an event loop.
 */
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';

/** How many processes: WORKERS, or 1 on the embedded database and the number of cores on PostgreSQL. */
export function workerCount(config: { WORKERS?: number | undefined; DATABASE_URL?: string | undefined }, cores = os.availableParallelism()): number {
  const postgres = !!config.DATABASE_URL;
  if (config.WORKERS === undefined) return postgres ? cores : 1;
  if (config.WORKERS > 1 && !postgres) {
    throw new Error(`WORKERS=${config.WORKERS} needs DATABASE_URL: the embedded database belongs to one process (leave WORKERS unset or 1)`);
  }
  return config.WORKERS;
}

/**
 * What a process of the server does: `all` alone (WORKERS=1: it answers HTTP calls and runs the jobs); with
 * WORKERS > 1 the primary only supervises, `http` workers answer calls and enqueue jobs, the `jobs` worker runs them.
 */
export type ProcessRole = 'all' | 'http' | 'jobs';

/** The environment variable by which the primary tells a worker its role. */
const ROLE_VARIABLE = 'BO_PROCESS_ROLE';

/** This process's role: a cluster worker's from its environment, `all` for a process on its own. */
export function processRole(): ProcessRole {
  if (!cluster.isWorker) return 'all';
  return process.env[ROLE_VARIABLE] === 'jobs' ? 'jobs' : 'http';
}

/** A worker that dies within this long of its start counts as a failed start. */
const QUICK_EXIT_MS = 10_000;
const MAX_QUICK_EXITS = 5;

/**
 * The primary process: forks `count` HTTP workers and the job process, replaces one that dies with one of its role
 * (unless they keep dying at once: then the primary gives up and exits 1), and on SIGTERM or SIGINT passes the signal
 * on and exits 0 once every worker has stopped (each drains its requests, or its jobs, as a single server does).
 */
export function superviseWorkers(count: number, log: (msg: string, extra?: Record<string, unknown>) => void): void {
  let stopping = false;
  let quickExits = 0;
  const startedAt = new Map<number, number>();
  const roles = new Map<number, ProcessRole>();
  const fork = (role: ProcessRole) => {
    const worker: Worker = cluster.fork({ [ROLE_VARIABLE]: role });
    startedAt.set(worker.id, Date.now());
    roles.set(worker.id, role);
  };
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    const role = roles.get(worker.id) ?? 'http';
    startedAt.delete(worker.id);
    roles.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    quickExits = lived < QUICK_EXIT_MS ? quickExits + 1 : 0;
    log('worker stopped', { pid: worker.process.pid, role, code, signal, livedMs: lived });
    if (quickExits >= MAX_QUICK_EXITS) {
      log('workers keep failing at start: stopping', { quickExits });
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      process.exitCode = 1;
      return;
    }
    fork(role);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {});
    if (alive.length === 0) process.exit(0);
    for (const w of alive) w?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < count; i++) fork('http');
  fork('jobs');
  log('workers started', { workers: count, jobProcess: true, pid: process.pid });
}
