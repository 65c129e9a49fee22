/**
 * The export worker (a worker_threads thread; export-worker-client.ts starts it): it writes export files
 * — the SKU pictures drawn and encoded, the workbook built and zipped, the PDF laid out — so that none of
 * that CPU work runs on the thread that answers the planners' requests (docs/exports.md "Off the main
 * thread"). The job, on the main thread, reads the items from the database and sends them here one at a
 * time; the file's bytes go back as they are made, and the job stores them.
 *
 * Messages (ExportWorkerRequest → ExportWorkerReply), per session (one export):
 *   open → (nothing); add → chunk* then added; finish → chunk* then finished; abort → (the session is dropped).
 * A failure in a session answers `failed` and drops it; the worker goes on serving the others.
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { isMainThread, parentPort, threadId } from 'node:worker_threads';
import type { ProductDto } from '@bo/shared/modules';
import { pictureKey, SkuPictures } from '../../lib/images/sku-pictures.js';
import type { FileWriter } from './export-kind.js';
import type { ExportWorkerReply, ExportWorkerRequest, OpenSession } from './export-worker-client.js';
import { createExportWriter, exportPictureRequest } from './export-writers.js';

/** The bytes sent back in one message, at most (the writers hand out many small pieces; each message costs). */
const REPLY_BYTES = 256 * 1024;

if (isMainThread || !parentPort) throw new Error('export-worker.ts runs in a worker thread (export-worker-client.ts)');
const port = parentPort;

/**
 * The worker thread's nice value (Linux; the process's threads keep theirs): on a machine whose cores are
 * all busy, the planners' requests (the main thread, PostgreSQL's backends) go first and the export takes
 * what is left; on an idle one the export runs at full speed all the same.
 */
const EXPORT_WORKER_NICE = 10;

/** Lowers this thread's priority: its id is the tail of /proc/thread-self (`<pid>/task/<tid>`), which setpriority takes on Linux. */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) os.setPriority(tid, Math.max(os.getPriority(tid), EXPORT_WORKER_NICE));
  } catch {
    // Not Linux (no /proc/thread-self), or not allowed: the worker keeps the process's priority.
  }
}
lowerPriority();

const send = (reply: ExportWorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

/**
 * The pictures this thread drew, kept across exports while it lives (an export as XLS, then as PDF, draws
 * them once), bounded as the picture route's cache is (png-cache.ts).
 */
const pictures = new SkuPictures();

interface Session {
  writer: FileWriter<unknown>;
  /** Pictures the main thread had already drawn (its picture route's cache), for the unit being added. */
  known: Map<string, Buffer>;
  pending: Uint8Array[];
  pendingBytes: number;
  drawn: number;
  /** Messages of the session are handled one after the other. */
  queue: Promise<void>;
}

const sessions = new Map<number, Session>();

/** Sends what the writer made so far in one message (a fresh buffer, transferred rather than copied). */
function flush(id: number, session: Session): void {
  if (session.pendingBytes === 0) return;
  const data = new Uint8Array(session.pendingBytes);
  let at = 0;
  for (const piece of session.pending) {
    data.set(piece, at);
    at += piece.length;
  }
  session.pending = [];
  session.pendingBytes = 0;
  send({ type: 'chunk', id, data }, [data.buffer]);
}

function open(msg: OpenSession): Session {
  const session: Session = {
    writer: undefined as unknown as FileWriter<unknown>,
    known: new Map(),
    pending: [],
    pendingBytes: 0,
    drawn: 0,
    queue: Promise.resolve(),
  };
  const picture = (sku: ProductDto): Buffer => {
    const req = exportPictureRequest(sku);
    const known = session.known.get(pictureKey(req));
    if (known) return known;
    const before = pictures.drawn;
    const png = pictures.draw(req);
    session.drawn += pictures.drawn - before;
    return png;
  };
  session.writer = createExportWriter(msg.kind, {
    pdf: msg.pdf,
    columns: msg.columns,
    out: (chunk) => {
      session.pending.push(chunk);
      session.pendingBytes += chunk.length;
      if (session.pendingBytes >= REPLY_BYTES) flush(msg.id, session);
    },
    ...(msg.withPictures ? { picture } : {}),
  });
  return session;
}

async function handle(msg: ExportWorkerRequest, session: Session): Promise<void> {
  switch (msg.type) {
    case 'add': {
      for (const [key, png] of msg.known) session.known.set(key, Buffer.from(png.buffer, png.byteOffset, png.byteLength));
      session.writer.add(msg.unit);
      session.known.clear();
      await session.writer.drained?.();
      flush(msg.id, session);
      send({ type: 'added', id: msg.id, seq: msg.seq });
      return;
    }
    case 'finish': {
      await session.writer.finish();
      flush(msg.id, session);
      sessions.delete(msg.id);
      send({ type: 'finished', id: msg.id, threadId, drawn: session.drawn });
      return;
    }
    default:
      return;
  }
}

port.on('message', (msg: ExportWorkerRequest) => {
  if (msg.type === 'open') {
    try {
      sessions.set(msg.id, open(msg));
    } catch (err) {
      send({ type: 'failed', id: msg.id, message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined });
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
      send({ type: 'failed', id: msg.id, message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined });
    });
});
