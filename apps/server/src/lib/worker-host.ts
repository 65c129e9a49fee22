/**
 * The server's side of a background worker: a child process that does CPU work in sessions while the server's
 * thread keeps answering the planners' requests. The export worker writes export files (exports/export-worker.ts),
 * the stage worker types release files (uploads/release-loader/stage-worker.ts). One process per kind and server
 * process, started by the first session and stopped after WORKER_IDLE_MS without one. The worker's side is
 * worker-sessions.ts (docs/performance.md "Off the main thread").
 *
 * Why a process and not a worker thread: every thread of the worker's process, its garbage collector's helpers too,
 * runs at the background priority (background-nice.ts). A worker thread's isolate has its collection done by the
 * V8 helper threads it shares with the server's thread, at the server's priority: while a release file was typed,
 * about 120 ms of such work a second competed with the planners' calls (docs/performance.md, 2026-12-02).
 *
 * A session is opened, fed one payload at a time (each add answers once the worker has handled it, so the
 * progress and the memory stay as they were) and finished, which answers the session's result; the bytes the
 * worker makes come back as they are made. A session that fails in the worker rejects its pending call with the
 * worker's error; a worker that dies (out of memory, a crash) fails every open session, and the next session
 * starts a new one. Messages go through the process's IPC channel in V8's serialization (buffers, maps, typed arrays).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type WorkerRequest<Open, Add> =
  | { type: 'open'; id: number; options: Open }
  | { type: 'add'; id: number; payload: Add }
  | { type: 'finish'; id: number }
  | { type: 'abort'; id: number };

export type WorkerReply<Result> =
  | { type: 'chunk'; id: number; data: Uint8Array }
  | { type: 'added'; id: number }
  | { type: 'finished'; id: number; result: Result }
  | { type: 'failed'; id: number; message: string; stack?: string | undefined };

/** An idle worker is stopped after this long (what it keeps — pictures, fonts — is then freed). */
const WORKER_IDLE_MS = 5 * 60_000;

/**
 * The worker's heap: at most 1 GiB (past it only the worker dies), and a young generation of three 8 MiB
 * semi-spaces, npm start's own (apps/server/package.json): typing a release file makes short-lived strings, and a
 * young generation left at V8's default of 48 MB grew the release loader's peak memory by ~200 MB.
 */
const WORKER_HEAP_FLAGS = ['--max-old-space-size=1024', '--max-semi-space-size=8'];

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface SessionState {
  out: (chunk: Buffer) => void;
  pending: Pending | null;
  failure: Error | null;
}

/** One session in a background worker. Calls go one at a time. */
export interface WorkerSession<Add, Result> {
  /** Hands the worker one payload; resolves once it has handled it. */
  add(payload: Add): Promise<void>;
  /** Resolves with the session's result once every byte it made has gone to `out`. */
  finish(): Promise<Result>;
  /** Drops the session (one that failed on this side): a call still waiting is rejected; harmless once finished. */
  abort(): void;
}

/**
 * Starts the worker whose code is `<file>.ts` beside `here` (the client module's import.meta.url) when run from
 * the TypeScript sources (tsx, vitest: loaded through tsx's loader), or the bundle's `<file>.js` beside
 * dist/server.js (scripts/build.mjs makes one entry per worker). The IPC channel is the child's fourth descriptor.
 */
function startWorker(here: string, file: string): ChildProcess {
  let args: string[];
  if (here.endsWith('.ts')) {
    const entry = new URL(`./${file}.ts`, here).href;
    // tsx's ESM API (the package answers its CommonJS build to require.resolve; that one cannot register from here).
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
    args = ['--input-type=module', '--eval', code];
  } else {
    args = [fileURLToPath(new URL(`./${file}.js`, here))];
  }
  return spawn(process.execPath, [...WORKER_HEAP_FLAGS, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
}

class WorkerFailure extends Error {
  constructor(name: string, message: string, workerStack?: string) {
    super(message);
    this.name = 'WorkerError';
    if (workerStack) this.stack = `${this.name}: ${message}\n    (in the ${name})\n${workerStack.split('\n').slice(1).join('\n')}`;
  }
}

export class WorkerHost<Open, Add, Result> {
  private worker: ChildProcess | null = null;
  private readonly sessions = new Map<number, SessionState>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Sessions finished since the process started, and the last one's result (tests, docs). */
  finished = 0;
  lastResult: Result | null = null;

  /** The worker's process id while it runs (tests). */
  get pid(): number | undefined {
    return this.worker?.pid;
  }

  /** `name`: for errors ("the export worker"); `here` and `file`: where the worker's code is (startWorker). */
  constructor(
    private readonly name: string,
    private readonly here: string,
    private readonly file: string,
  ) {}

  private ensure(): ChildProcess {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.worker) return this.worker;
    const worker = startWorker(this.here, this.file);
    let error: Error | null = null;
    let ended = false;
    const end = (why: string) => {
      if (ended) return;
      ended = true;
      if (this.worker === worker) this.worker = null;
      const failure = new WorkerFailure(this.name, `The ${this.name} stopped (${error ? error.message : why})`);
      for (const [id, state] of this.sessions) this.fail(id, state, failure);
    };
    worker.on('message', (reply: WorkerReply<Result>) => this.receive(reply));
    worker.on('error', (err) => {
      error = err;
      // A process that could not be started emits no exit.
      if (worker.pid === undefined) end('not started');
    });
    worker.on('exit', (code, signal) => end(signal ? `signal ${signal}` : `exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  /** Sends a message; one the channel can no longer take is dropped (the worker's exit fails its sessions). */
  private send(worker: ChildProcess, msg: WorkerRequest<Open, Add>): void {
    if (!worker.connected) return;
    worker.send(msg, (err) => {
      if (err && worker.connected) worker.kill();
    });
  }

  private fail(id: number, state: SessionState, error: Error): void {
    state.failure ??= error;
    const pending = state.pending;
    state.pending = null;
    this.sessions.delete(id);
    this.idleIfDone();
    pending?.reject(state.failure);
  }

  private receive(reply: WorkerReply<Result>): void {
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
        this.fail(reply.id, state, new WorkerFailure(this.name, reply.message, reply.stack));
        return;
    }
  }

  /** Whether the worker keeps the server's process alive: only while a session is open. */
  private static hold(worker: ChildProcess, hold: boolean): void {
    const channel = worker.channel as { ref?: () => void; unref?: () => void } | null | undefined;
    if (hold) {
      worker.ref();
      channel?.ref?.();
    } else {
      worker.unref();
      channel?.unref?.();
    }
  }

  /** With no session left the worker no longer keeps the process alive, and stops after WORKER_IDLE_MS. */
  private idleIfDone(): void {
    if (this.sessions.size > 0 || !this.worker) return;
    const worker = this.worker;
    WorkerHost.hold(worker, false);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && this.sessions.size === 0) {
        this.worker = null;
        worker.kill();
      }
    }, WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  /** Opens a session; `out` receives the bytes the worker makes for it, in order. */
  open(options: Open, out: (chunk: Buffer) => void): WorkerSession<Add, Result> {
    const worker = this.ensure();
    WorkerHost.hold(worker, true);
    const id = this.nextId++;
    const state: SessionState = { out, pending: null, failure: null };
    this.sessions.set(id, state);
    this.send(worker, { type: 'open', id, options });
    const call = <T>(msg: WorkerRequest<Open, Add>): Promise<T> => {
      if (state.failure) return Promise.reject(state.failure);
      if (state.pending) return Promise.reject(new Error(`A session of the ${this.name} takes one call at a time`));
      if (!this.sessions.has(id)) return Promise.reject(new Error(`The session of the ${this.name} is closed`));
      return new Promise<T>((resolve, reject) => {
        state.pending = { resolve: resolve as (value: unknown) => void, reject };
        this.send(worker, msg);
      });
    };
    return {
      add: (payload) => call<void>({ type: 'add', id, payload }),
      finish: () => call<Result>({ type: 'finish', id }),
      abort: () => {
        if (!this.sessions.has(id)) return;
        this.sessions.delete(id);
        const pending = state.pending;
        state.pending = null;
        state.failure ??= new Error(`The session of the ${this.name} was aborted`);
        this.send(worker, { type: 'abort', id });
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
    if (!worker) return;
    if (worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.kill();
    await exited;
  }
}
