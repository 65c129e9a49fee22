/**
 * The fast way of a large CSV file into its staging table, on PostgreSQL: the stage worker (stage-worker.ts, a
 * background process) types the file's lines (stage-typer.ts) while this thread reads the stored upload's bytes,
 * hands them over chunk by chunk and streams the typed rows to `COPY … FROM STDIN` (text format). After the COPY,
 * the items' fields (module and cluster files), typed by the worker too, are copied to the head table.
 *
 * Anything the typing does not read (stage-typer.ts NotFast), an xlsx file, or a row COPY refuses undoes the COPY
 * (a savepoint) and answers null: the caller then stages the file the careful way (stage-file.ts), which reports
 * every fault with its row. release-loader.test.ts loads files both ways.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pgClientOf, type Queryable } from '../../../db/client.js';
import { WorkerHost, type WorkerSession } from '../../../lib/worker-host.js';
import type { ReleaseFileKind } from './formats.js';
import { formatOf, type FileSource } from './read-records.js';
import { HEAD_COLUMNS, HEAD_TABLES, STAGE, type HeadKind } from './staging-tables.js';
import { planOf, readHeader, type StageOptions, type StageResult } from './stage-typer.js';

/** The kinds worth the fast way: the big files without rules between rows of different items. */
export const FAST_KINDS: readonly ReleaseFileKind[] = ['registry', 'module', 'cluster'];

/** The process's stage worker. */
export const stageWorker = new WorkerHost<StageOptions, Uint8Array, StageResult>('stage worker', import.meta.url, 'stage-worker');

/** Reads the first chunks of the stream until a line break (or 64 KiB). */
async function firstLine(iterator: AsyncIterator<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  while (length < 65_536) {
    const next = await iterator.next();
    if (next.done) break;
    parts.push(next.value);
    length += next.value.length;
    if (next.value.includes(0x0a)) break;
  }
  return Buffer.concat(parts);
}

/**
 * The file's bytes after the header line, handed to the stage worker one chunk at a time, and the COPY text it
 * sends back (gathered in `typed` by the session's `out`). Three things overlap: the worker types a chunk while the
 * COPY takes the rows of the one before and the next is read from the database. Answers the session's result.
 */
async function* typedText(
  session: WorkerSession<Uint8Array, StageResult>,
  typed: Buffer[],
  first: Buffer,
  rest: AsyncIterator<Buffer>,
  onBytes: (bytes: number) => void,
): AsyncGenerator<Buffer, StageResult> {
  let bytes = 0;
  let chunk: Buffer | null = first;
  let ready: Buffer[] = [];
  while (chunk) {
    bytes += chunk.length;
    onBytes(bytes);
    const next = rest.next();
    next.catch(() => undefined); // read ahead: a failure is thrown where it is awaited
    const adding = session.add(chunk);
    adding.catch(() => undefined); // thrown below, once the previous rows are written
    for (const piece of ready) if (piece.length > 0) yield piece;
    await adding;
    ready = typed.splice(0);
    const read = await next;
    chunk = read.done ? null : read.value;
  }
  for (const piece of ready) if (piece.length > 0) yield piece;
  const result = await session.finish();
  for (const piece of typed.splice(0)) if (piece.length > 0) yield piece;
  return result;
}

/**
 * Stages `source` the fast way and answers its row count, or null (nothing staged) when the file must
 * go the careful way. Needs PostgreSQL through the `pg` driver; the embedded database answers null.
 */
export async function stageFast(db: Queryable, kind: ReleaseFileKind, source: FileSource, onBytes: (bytes: number) => void): Promise<number | null> {
  const client = pgClientOf(db);
  if (!client || !FAST_KINDS.includes(kind)) return null;
  const stream = source.open(db);
  const iterator = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    const head = await firstLine(iterator);
    const header = head.length > 0 && formatOf(head) === 'csv' ? readHeader(kind, head) : null;
    if (!header) return null;
    const plan = planOf(kind, header);
    await db.execute(sql`SAVEPOINT rl_fast`);
    const typed: Buffer[] = [];
    // The worker reads the same header from the same bytes (stage-typer.ts FileTyper).
    const session = stageWorker.open({ kind, head: new Uint8Array(head.subarray(0, header.headerBytes)) }, (piece) => typed.push(piece));
    try {
      const copy = client.query(
        copyFrom(`COPY ${STAGE[kind]} (row_no, ${plan.columns.map((c) => `"${c.db}"`).join(', ')}) FROM STDIN`),
      );
      let result: StageResult | null = null;
      const text = typedText(session, typed, header.rest, iterator, (bytes) => onBytes(header.headerBytes + bytes));
      const pieces = async function* () {
        result = yield* text;
      };
      await pipeline(Readable.from(pieces()), copy);
      const done = result as StageResult | null;
      if (!done || Number(copy.rowCount) !== done.rows) throw new Error('COPY read another number of rows');
      if (plan.head) await copyHeads(client, plan.head.kind, done);
      await db.execute(sql`RELEASE SAVEPOINT rl_fast`);
      return done.rows;
    } catch {
      // Something for the careful way to look at, or a row COPY refused: it will say what and where.
      session.abort();
      await db.execute(sql`ROLLBACK TO SAVEPOINT rl_fast`);
      return null;
    }
  } finally {
    stream.destroy();
  }
}

/** The head table's rows, typed by the worker, through one COPY (no work on this thread but the handing over). */
async function copyHeads(client: PoolClient, kind: HeadKind, result: StageResult): Promise<void> {
  const copy = client.query(copyFrom(`COPY ${HEAD_TABLES[kind]} (row_no, ${HEAD_COLUMNS[kind].map((c) => `"${c}"`).join(', ')}) FROM STDIN`));
  await pipeline(Readable.from([Buffer.from(result.heads.buffer, result.heads.byteOffset, result.heads.byteLength)]), copy);
  if (Number(copy.rowCount) !== result.headRows) throw new Error('COPY read another number of head rows');
}
