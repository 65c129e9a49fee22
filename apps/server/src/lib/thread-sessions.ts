/**
 * The worker's side of a background thread (thread-host.ts has the main thread's): it serves sessions, each
 * made by the worker's `open` and fed its payloads in order, and sends the bytes they make back in messages
 * of at most REPLY_BYTES, transferred rather than copied.
 *
 * Messages (ThreadRequest → ThreadReply), per session:
 *   open → (nothing); add → chunk* then added; finish → chunk* then finished; abort → (the session is dropped).
 * A failure in a session answers `failed` and drops it; the worker goes on serving the others.
 */
import { readlinkSync } from 'node:fs';
import { isMainThread, parentPort } from 'node:worker_threads';
import { lowerToBackgroundNice } from './background-nice.js';
import type { ThreadReply, ThreadRequest } from './thread-host.js';

/** What a worker's `open` makes of one session. */
export interface SessionWork<Add, Result> {
  add(payload: Add): void | Promise<void>;
  /** Makes what is left (to `out`) and answers the session's result. */
  finish(): Result | Promise<Result>;
}

/** The bytes sent back in one message, at most (writers hand out many small pieces; each message costs). */
const REPLY_BYTES = 256 * 1024;

/** Lowers this thread's priority (the process's other threads keep theirs) to BACKGROUND_NICE: its id is the tail of /proc/thread-self (`<pid>/task/<tid>`), which setpriority takes on Linux. */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) lowerToBackgroundNice(tid);
  } catch {
    // Not Linux (no /proc/thread-self), or not allowed: the worker keeps the process's priority.
  }
}

interface Session<Add, Result> {
  work: SessionWork<Add, Result>;
  pending: Uint8Array[];
  pendingBytes: number;
  /** Messages of a session are handled one after the other. */
  queue: Promise<void>;
}

/** Serves the main thread's sessions in this worker; `open` makes one from its options and its `out`. */
export function serveSessions<Open, Add, Result>(file: string, open: (options: Open, out: (chunk: Buffer) => void) => SessionWork<Add, Result>): void {
  if (isMainThread || !parentPort) throw new Error(`${file} runs in a worker thread (thread-host.ts)`);
  const port = parentPort;
  lowerPriority();
  const send = (reply: ThreadReply<Result>, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
  const failed = (id: number, err: unknown) =>
    send({ type: 'failed', id, message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined });
  const sessions = new Map<number, Session<Add, Result>>();

  /**
   * Sends what the session made so far in one message, transferred: the piece itself when it is one piece that owns
   * its memory whole (a stage worker's typed chunk), else the pieces joined into a fresh buffer.
   */
  const flush = (id: number, session: Session<Add, Result>) => {
    if (session.pendingBytes === 0) return;
    const only = session.pending.length === 1 ? session.pending[0]! : null;
    if (only && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength && only.buffer instanceof ArrayBuffer) {
      session.pending = [];
      session.pendingBytes = 0;
      send({ type: 'chunk', id, data: only }, [only.buffer]);
      return;
    }
    const data = new Uint8Array(session.pendingBytes);
    let at = 0;
    for (const piece of session.pending) {
      data.set(piece, at);
      at += piece.length;
    }
    session.pending = [];
    session.pendingBytes = 0;
    send({ type: 'chunk', id, data }, [data.buffer]);
  };

  const handle = async (msg: ThreadRequest<Open, Add>, session: Session<Add, Result>): Promise<void> => {
    if (msg.type === 'add') {
      await session.work.add(msg.payload);
      flush(msg.id, session);
      send({ type: 'added', id: msg.id });
    } else if (msg.type === 'finish') {
      const result = await session.work.finish();
      flush(msg.id, session);
      sessions.delete(msg.id);
      send({ type: 'finished', id: msg.id, result });
    }
  };

  port.on('message', (msg: ThreadRequest<Open, Add>) => {
    if (msg.type === 'open') {
      const session: Session<Add, Result> = { work: undefined as unknown as SessionWork<Add, Result>, pending: [], pendingBytes: 0, queue: Promise.resolve() };
      try {
        session.work = open(msg.options, (chunk) => {
          session.pending.push(chunk);
          session.pendingBytes += chunk.length;
          if (session.pendingBytes >= REPLY_BYTES) flush(msg.id, session);
        });
        sessions.set(msg.id, session);
      } catch (err) {
        failed(msg.id, err);
      }
      return;
    }
    const session = sessions.get(msg.id);
    if (!session) return; // aborted, or failed already (the client has its answer)
    if (msg.type === 'abort') {
      sessions.delete(msg.id);
      return;
    }
    session.queue = session.queue
      .then(() => (sessions.get(msg.id) === session ? handle(msg, session) : undefined))
      .catch((err: unknown) => {
        sessions.delete(msg.id);
        failed(msg.id, err);
      });
  });
}
