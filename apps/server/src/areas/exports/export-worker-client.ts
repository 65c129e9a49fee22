/**
 * The main thread's side of the export worker (export-worker.ts): one worker_threads thread per
 * process, started by the first export and stopped after EXPORT_WORKER_IDLE_MS without one, which
 * writes the files of the export jobs — pictures, workbooks, PDFs — while this thread keeps answering
 * requests (docs/exports.md "Off the main thread"). An export is a session: the job opens it, adds its
 * items one at a time (each add answers once the worker has written the item, so the progress and the
 * memory stay as they were) and finishes it; the file's bytes come back as they are made.
 *
 * A session that fails in the worker rejects its pending call with the worker's error; a worker that
 * dies (out of memory, a crash) fails every open session and the next export starts a new one.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExportKind } from '@bo/shared/exports';

export interface OpenSession {
  type: 'open';
  id: number;
  kind: ExportKind;
  pdf: boolean;
  columns: string[];
  withPictures: boolean;
}

export type ExportWorkerRequest =
  | OpenSession
  /** `known`: pictures (by pictureKey) the main thread had drawn already, handed over for this unit. */
  | { type: 'add'; id: number; seq: number; unit: unknown; known: [string, Uint8Array][] }
  | { type: 'finish'; id: number }
  | { type: 'abort'; id: number };

export type ExportWorkerReply =
  | { type: 'chunk'; id: number; data: Uint8Array }
  | { type: 'added'; id: number; seq: number }
  | { type: 'finished'; id: number; threadId: number; drawn: number }
  | { type: 'failed'; id: number; message: string; stack?: string | undefined };

/** What a finished session reports: the thread that wrote the file and the pictures it drew for it. */
interface ExportWorkerRun {
  threadId: number;
  drawn: number;
}

/** An idle worker is stopped after this long (its pictures and fonts are then freed). */
const EXPORT_WORKER_IDLE_MS = 5 * 60_000;

/** The heap ceiling of the worker's isolate: npm start's (apps/server/package.json); past it only the worker dies. */
const WORKER_MAX_OLD_MB = 1024;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface SessionState {
  out: (chunk: Buffer) => void;
  pending: Pending | null;
  failure: Error | null;
}

class WorkerFailure extends Error {
  constructor(message: string, workerStack?: string) {
    super(message);
    this.name = 'ExportWorkerError';
    if (workerStack) this.stack = `${this.name}: ${message}\n    (in the export worker)\n${workerStack.split('\n').slice(1).join('\n')}`;
  }
}

/**
 * The worker's code: the bundle's `dist/export-worker.js` beside `dist/server.js` (scripts/build.mjs),
 * or, run from the TypeScript sources (tsx, vitest), export-worker.ts loaded through tsx's loader.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_MAX_OLD_MB };
  if (here.endsWith('.ts')) {
    const entry = new URL('./export-worker.ts', here).href;
    // tsx's ESM API (the package answers its CommonJS build to require.resolve; that one cannot register from here).
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
    return new Worker(code, { eval: true, execArgv: [], resourceLimits, name: 'export-worker' });
  }
  return new Worker(new URL('./export-worker.js', here), { resourceLimits, name: 'export-worker' });
}

class ExportWorkerHost {
  private worker: Worker | null = null;
  private readonly sessions = new Map<number, SessionState>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Sessions finished since the process started, and the last one's report (tests, docs). */
  finished = 0;
  lastRun: ExportWorkerRun | null = null;

  private ensure(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.worker) return this.worker;
    const worker = startWorker();
    let error: Error | null = null;
    worker.on('message', (reply: ExportWorkerReply) => this.receive(reply));
    worker.on('error', (err) => {
      error = err;
    });
    worker.on('messageerror', (err) => {
      error = err;
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      const failure = new WorkerFailure(`The export worker stopped (${error ? error.message : `exit code ${code}`})`);
      for (const [id, state] of this.sessions) this.fail(id, state, failure);
    });
    this.worker = worker;
    return worker;
  }

  private fail(id: number, state: SessionState, error: Error): void {
    state.failure ??= error;
    const pending = state.pending;
    state.pending = null;
    this.sessions.delete(id);
    this.idleIfDone();
    pending?.reject(state.failure);
  }

  private receive(reply: ExportWorkerReply): void {
    const state = this.sessions.get(reply.id);
    if (!state) return;
    switch (reply.type) {
      case 'chunk':
        state.out(Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength));
        return;
      case 'added': {
        const pending = state.pending;
        state.pending = null;
        pending?.resolve(undefined);
        return;
      }
      case 'finished': {
        const run = { threadId: reply.threadId, drawn: reply.drawn };
        this.finished++;
        this.lastRun = run;
        const pending = state.pending;
        state.pending = null;
        this.sessions.delete(reply.id);
        this.idleIfDone();
        pending?.resolve(run);
        return;
      }
      case 'failed':
        this.fail(reply.id, state, new WorkerFailure(reply.message, reply.stack));
        return;
    }
  }

  /** With no session left the worker no longer keeps the process alive, and stops after EXPORT_WORKER_IDLE_MS. */
  private idleIfDone(): void {
    if (this.sessions.size > 0 || !this.worker) return;
    const worker = this.worker;
    worker.unref();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && this.sessions.size === 0) {
        this.worker = null;
        void worker.terminate();
      }
    }, EXPORT_WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  open(opts: Omit<OpenSession, 'type' | 'id'>, out: (chunk: Buffer) => void): ExportSession {
    const worker = this.ensure();
    worker.ref();
    const id = this.nextId++;
    const state: SessionState = { out, pending: null, failure: null };
    this.sessions.set(id, state);
    worker.postMessage({ type: 'open', id, ...opts } satisfies ExportWorkerRequest);
    let seq = 0;
    const call = <T>(msg: ExportWorkerRequest, transfer: ArrayBuffer[] = []): Promise<T> => {
      if (state.failure) return Promise.reject(state.failure);
      if (state.pending) return Promise.reject(new Error('An export session takes one call at a time'));
      if (!this.sessions.has(id)) return Promise.reject(new Error('The export session is closed'));
      return new Promise<T>((resolve, reject) => {
        state.pending = { resolve: resolve as (value: unknown) => void, reject };
        worker.postMessage(msg, transfer);
      });
    };
    return {
      add: (unit, known = []) => call<void>({ type: 'add', id, seq: seq++, unit, known }),
      finish: () => call<ExportWorkerRun>({ type: 'finish', id }),
      abort: () => {
        if (!this.sessions.has(id)) return;
        this.sessions.delete(id);
        state.pending = null;
        worker.postMessage({ type: 'abort', id } satisfies ExportWorkerRequest);
        this.idleIfDone();
      },
    };
  }

  /** Stops the worker now (its open sessions fail); the next export starts a new one. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (worker) await worker.terminate();
  }
}

/** One export, written by the worker. Calls go one at a time. */
export interface ExportSession {
  /** Writes one unit (the worker answers once it has written it); `known`: pictures already drawn here. */
  add(unit: unknown, known?: [string, Uint8Array][]): Promise<void>;
  /** Writes the rest of the file; every byte has gone to `out` once it resolves. */
  finish(): Promise<ExportWorkerRun>;
  /** Drops the session (an export that failed on this side); harmless once finished. */
  abort(): void;
}

/** The process's export worker. */
export const exportWorker = new ExportWorkerHost();
