/**
 * An export's file goes to the database as it is built, in pieces of about EXPORT_CHUNK_BYTES
 * (export_file_chunks), and comes back as a stream: neither the job nor a download holds the whole
 * file (docs/exports.md "Storage").
 */
import type { Readable } from 'node:stream';
import type { Queryable } from '../../db/client.js';
import { storedPiecesStream } from '../../lib/stored-pieces.js';
import { clearExportChunks, insertExportChunk, readExportChunk } from './exports.repository.js';

export const EXPORT_CHUNK_BYTES = 1024 * 1024;

/** Collects the writer's output and stores it piece by piece, one insert in flight at a time. */
export class ExportChunkStore {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** Every byte written so far. */
  bytes = 0;

  private constructor(
    private readonly db: Queryable,
    private readonly exportId: number,
  ) {}

  /** A store for the export, with the pieces of an earlier, interrupted run removed. */
  static async open(db: Queryable, exportId: number): Promise<ExportChunkStore> {
    await clearExportChunks(db, exportId);
    return new ExportChunkStore(db, exportId);
  }

  /** Takes a piece of the file (synchronously: writers emit while they work). */
  write(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.bytes += chunk.length;
    if (this.pendingBytes >= EXPORT_CHUNK_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const data = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    const seq = this.seq++;
    this.writing = this.writing.then(() => insertExportChunk(this.db, this.exportId, seq, data)).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  /** Stores what is left and waits for every insert; throws the first failure. */
  async close(): Promise<void> {
    this.flush();
    await this.writing;
    if (this.failure) throw this.failure;
  }
}

/** The stored file as a stream, one piece read at a time. */
export function exportChunkStream(db: Queryable, exportId: number): Readable {
  return storedPiecesStream((seq) => readExportChunk(db, exportId, seq));
}
