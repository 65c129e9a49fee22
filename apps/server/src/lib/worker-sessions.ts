/**
 * The worker's side of a background worker, a child process of the server (worker-host.ts has the server's side):
 * it serves sessions, each made by the worker's `open` and fed its payloads in order, and sends the bytes they make
 * back in messages of at most REPLY_BYTES. Every thread of the process runs at the background priority.
 *
 * Messages (WorkerRequest → WorkerReply), per session:
 *   open → (nothing); add → chunk* then added; finish → chunk* then finished; abort → (the session is dropped).
 * A failure in a session answers `failed` and drops it; the worker goes on serving the others. The worker ends
 * when the server's end of the channel closes (the server stopped, or let it go).
 */
import { isMainThread } from 'node:worker_threads';
import { lowerEveryThreadToBackgroundNice } from './background-nice.js';
import type { WorkerReply, WorkerRequest } from './worker-host.js';

/** What a worker's `open` makes of one session. */
export interface SessionWork<Add, Result> {
  add(payload: Add): void | Promise<void>;
  /** Makes what is left (to `out`) and answers the session's result. */
  finish(): Result | Promise<Result>;
}

/** The bytes sent back in one message, at most (writers hand out many small pieces; each message costs). */
const REPLY_BYTES = 256 * 1024;

interface Session<Add, Result> {
  work: SessionWork<Add, Result>;
  pending: Uint8Array[];
  pendingBytes: number;
  /** Messages of a session are handled one after the other. */
  queue: Promise<void>;
}

/** Serves the server's sessions in this worker process; `open` makes one from its options and its `out`. */
export function serveSessions<Open, Add, Result>(file: string, open: (options: Open, out: (chunk: Buffer) => void) => SessionWork<Add, Result>): void {
  if (!isMainThread || !process.send) throw new Error(`${file} runs as a child process of the server (worker-host.ts)`);
  lowerEveryThreadToBackgroundNice();
  const send = (reply: WorkerReply<Result>) => {
    if (process.connected) process.send!(reply);
  };
  const failed = (id: number, err: unknown) =>
    send({ type: 'failed', id, message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined });
  const sessions = new Map<number, Session<Add, Result>>();

  /** Sends what the session made so far in one message: the piece itself when it is one, else the pieces joined. */
  const flush = (id: number, session: Session<Add, Result>) => {
    if (session.pendingBytes === 0) return;
    const data = session.pending.length === 1 ? session.pending[0]! : Buffer.concat(session.pending, session.pendingBytes);
    session.pending = [];
    session.pendingBytes = 0;
    send({ type: 'chunk', id, data });
  };

  const handle = async (msg: WorkerRequest<Open, Add>, session: Session<Add, Result>): Promise<void> => {
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

  process.on('disconnect', () => process.exit(0));
  process.on('message', (msg: WorkerRequest<Open, Add>) => {
    if (msg.type === 'open') {
      lowerEveryThreadToBackgroundNice();
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
    if (!session) return; // aborted, or failed already (the server has its answer)
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
