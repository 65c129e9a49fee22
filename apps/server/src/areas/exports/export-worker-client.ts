/**
 * The server's side of the export worker (export-worker.ts), a background process (lib/worker-host.ts)
 * which writes the files of the export jobs — pictures, workbooks, PDFs — while this thread keeps answering
 * requests (docs/exports.md "Off the main thread"). An export is a session: the job opens it, adds its items one
 * at a time (each add answers once the worker has written the item, so the progress and the memory stay as they
 * were) and finishes it; the file's bytes come back as they are made.
 */
import type { ExportKind } from '@bo/shared/exports';
import { WorkerHost, type WorkerSession } from '../../lib/worker-host.js';

export interface ExportOptions {
  kind: ExportKind;
  pdf: boolean;
  columns: string[];
  withPictures: boolean;
}

/** One unit of the export; `known`: pictures (by pictureKey) the server had drawn already, handed over for it. */
export interface ExportAdd {
  unit: unknown;
  known: [string, Uint8Array][];
}

/** What a finished export reports: the process that wrote the file and the pictures it drew for it. */
export interface ExportRun {
  pid: number;
  drawn: number;
}

/** The process's export worker. */
const host = new WorkerHost<ExportOptions, ExportAdd, ExportRun>('export worker', import.meta.url, 'export-worker');

/** One export, written by the worker. Calls go one at a time. */
export interface ExportSession {
  /** Writes one unit (the worker answers once it has written it); `known`: pictures already drawn here. */
  add(unit: unknown, known?: [string, Uint8Array][]): Promise<void>;
  /** Writes the rest of the file; every byte has gone to `out` once it resolves. */
  finish(): Promise<ExportRun>;
  /** Drops the session (an export that failed on this side); harmless once finished. */
  abort(): void;
}

export const exportWorker = {
  /** Exports finished since the process started, and the last one's report (tests, docs). */
  get finished(): number {
    return host.finished;
  },
  get lastRun(): ExportRun | null {
    return host.lastResult;
  },
  open(options: ExportOptions, out: (chunk: Buffer) => void): ExportSession {
    const session: WorkerSession<ExportAdd, ExportRun> = host.open(options, out);
    return { add: (unit, known = []) => session.add({ unit, known }), finish: () => session.finish(), abort: () => session.abort() };
  },
  stop: () => host.stop(),
};
