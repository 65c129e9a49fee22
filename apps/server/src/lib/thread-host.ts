/**
 * The main thread's side of a background thread (worker_threads) that does CPU work in sessions while this
 * thread keeps answering the planners' requests: the export worker writes export files (exports/export-worker.ts),
 * the stage worker types release files (uploads/release-loader/stage-worker.ts). One thread per kind and process,
 * started by the first session and stopped after THREAD_IDLE_MS without one. The worker's side is
 * thread-sessions.ts (docs/performance.md "Off the main thread").
 *
 * A session is opened, fed one payload at a time (each add answers once the worker has handled it, so the
 * progress and the memory stay as they were) and finished, which answers the session's result; the bytes the
 * worker makes come back as they are made. A session that fails in the worker rejects its pending call with the
 * worker's error; a worker that dies (out of memory, a crash) fails every open session, and the next session
 * starts a new one.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export type ThreadRequest<Open, Add> =
  | { type: 'open'; id: number; options: Open }
  | { type: 'add'; id: number; payload: Add }
  | { type: 'finish'; id: number }
  | { type: 'abort'; id: number };

export type ThreadReply<Result> =
  | { type: 'chunk'; id: number; data: Uint8Array }
  | { type: 'added'; id: number }
  | { type: 'finished'; id: number; result: Result }
  | { type: 'failed'; id: number; message: string; stack?: string | undefined };

/** An idle worker is stopped after this long (what it keeps — pictures, fonts — is then freed). */
const THREAD_IDLE_MS = 5 * 60_000;

/** The heap ceiling of a worker's isolate: npm start's (apps/server/package.json); past it only the worker dies. */
const WORKER_MAX_OLD_MB = 1024;
/**
 * Its young generation: npm start's `--max-semi-space-size=8` (three semi-spaces), set here too so that a worker
 * started from the TypeScript sources (tests, benchmarks) keeps the same memory: typing a release file makes short-lived
 * strings, and a young generation left at V8's default of 48 MB grew the release loader's peak RSS by ~200 MB.
 */
const WORKER_MAX_YOUNG_MB = 24;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface SessionState {
  out: (chunk: Buffer) => void;
  pending: Pending | null;
  failure: Error | null;
}

/** One session in a background thread. Calls go one at a time. */
export interface ThreadSession<Add, Result> {
  /** Hands the worker one payload (`transfer`: buffers moved, not copied); resolves once it has handled it. */
  add(payload: Add, transfer?: ArrayBuffer[]): Promise<void>;
  /** Resolves with the session's result once every byte it made has gone to `out`. */
  finish(): Promise<Result>;
  /** Drops the session (one that failed on this side): a call still waiting is rejected; harmless once finished. */
  abort(): void;
}

/**
 * Starts the worker whose code is `<file>.ts` beside `here` (the client module's import.meta.url) when run from
 * the TypeScript sources (tsx, vitest: loaded through tsx's loader), or the bundle's `<file>.js` beside
 * dist/server.js (scripts/build.mjs makes one entry per worker).
 */
function startWorker(here: string, file: string): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_MAX_OLD_MB, maxYoungGenerationSizeMb: WORKER_MAX_YOUNG_MB };
  if (here.endsWith('.ts')) {
    const entry = new URL(`./${file}.ts`, here).href;
    // tsx's ESM API (the package answers its CommonJS build to require.resolve; that one cannot register from here).
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
    return new Worker(code, { eval: true, execArgv: [], resourceLimits, name: file });
  }
  return new Worker(new URL(`./${file}.js`, here), { resourceLimits, name: file });
}

class ThreadFailure extends Error {
  constructor(name: string, message: string, workerStack?: string) {
    super(message);
    this.name = 'ThreadError';
    if (workerStack) this.stack = `${this.name}: ${message}\n    (in the ${name})\n${workerStack.split('\n').slice(1).join('\n')}`;
  }
}

export class ThreadHost<Open, Add, Result> {
  private worker: Worker | null = null;
  private readonly sessions = new Map<number, SessionState>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Sessions finished since the process started, and the last one's result (tests, docs). */
  finished = 0;
  lastResult: Result | null = null;

  /** `name`: for errors ("the export worker"); `here` and `file`: where the worker's code is (startWorker). */
  constructor(
    private readonly name: string,
    private readonly here: string,
    private readonly file: string,
  ) {}

  private ensure(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.worker) return this.worker;
    const worker = startWorker(this.here, this.file);
    let error: Error | null = null;
    worker.on('message', (reply: ThreadReply<Result>) => this.receive(reply));
    worker.on('error', (err) => {
      error = err;
    });
    worker.on('messageerror', (err) => {
      error = err;
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      const failure = new ThreadFailure(this.name, `The ${this.name} stopped (${error ? error.message : `exit code ${code}`})`);
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

  private receive(reply: ThreadReply<Result>): void {
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
        this.finished++;
        this.lastResult = reply.result;
        const pending = state.pending;
        state.pending = null;
        this.sessions.delete(reply.id);
        this.idleIfDone();
        pending?.resolve(reply.result);
        return;
      }
      case 'failed':
        this.fail(reply.id, state, new ThreadFailure(this.name, reply.message, reply.stack));
        return;
    }
  }

  /** With no session left the worker no longer keeps the process alive, and stops after THREAD_IDLE_MS. */
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
    }, THREAD_IDLE_MS);
    this.idleTimer.unref();
  }

  /** Opens a session; `out` receives the bytes the worker makes for it, in order. */
  open(options: Open, out: (chunk: Buffer) => void): ThreadSession<Add, Result> {
    const worker = this.ensure();
    worker.ref();
    const id = this.nextId++;
    const state: SessionState = { out, pending: null, failure: null };
    this.sessions.set(id, state);
    worker.postMessage({ type: 'open', id, options } satisfies ThreadRequest<Open, Add>);
    const call = <T>(msg: ThreadRequest<Open, Add>, transfer: ArrayBuffer[] = []): Promise<T> => {
      if (state.failure) return Promise.reject(state.failure);
      if (state.pending) return Promise.reject(new Error(`A session of the ${this.name} takes one call at a time`));
      if (!this.sessions.has(id)) return Promise.reject(new Error(`The session of the ${this.name} is closed`));
      return new Promise<T>((resolve, reject) => {
        state.pending = { resolve: resolve as (value: unknown) => void, reject };
        worker.postMessage(msg, transfer);
      });
    };
    return {
      add: (payload, transfer = []) => call<void>({ type: 'add', id, payload }, transfer),
      finish: () => call<Result>({ type: 'finish', id }),
      abort: () => {
        if (!this.sessions.has(id)) return;
        this.sessions.delete(id);
        const pending = state.pending;
        state.pending = null;
        state.failure ??= new Error(`The session of the ${this.name} was aborted`);
        worker.postMessage({ type: 'abort', id } satisfies ThreadRequest<Open, Add>);
        this.idleIfDone();
        // A call still waiting gets its answer (no one would wait for it forever).
        pending?.reject(state.failure);
      },
    };
  }

  /** Stops the worker now (its open sessions fail); the next session starts a new one. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (worker) await worker.terminate();
  }
}
