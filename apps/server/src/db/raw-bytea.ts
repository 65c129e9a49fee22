/**
 * One stored piece of a file (a bytea) read as raw bytes on PostgreSQL.
 *
 * A SELECT sends a bytea as hex text: PostgreSQL writes twice the bytes and the server's event loop turns them back
 * (the text cut out of the message, then decoded): about 25 ms of the main thread for a piece of 1 MiB, and a 78 MB
 * export downloaded while planners work held their calls for seconds (docs/performance.md "The stored pieces read raw").
 * `COPY (SELECT …) TO STDOUT (FORMAT binary)` sends the bytes as they are, in CopyData messages that
 * pg-copy-streams hands over as buffers. COPY takes no parameters: the select's parameters (the piece's key) are written
 * into the statement as literals (numbers: safe integers only; texts: quotes doubled, NUL refused; anything else refused).
 *
 * On the embedded database (no pg connection) the same select runs as any query.
 */
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { queryRows, type Queryable } from './client.js';

/** A SQL integer literal of `n`, which must be a safe integer. */
export function intLiteral(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`Not an integer: ${n}`);
  return String(n);
}

/** A SQL text literal of `s` (standard_conforming_strings, the default since PostgreSQL 9.1). */
export function textLiteral(s: string): string {
  if (s.includes('\u0000')) throw new Error('A text literal cannot hold NUL');
  return `'${s.replace(/'/g, "''")}'`;
}

/** The pool or the open transaction's connection `db` runs on, or null on the embedded database. */
export function pgOf(db: Queryable): pg.Pool | pg.Client | null {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Pool || client instanceof pg.Client ? client : null;
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The first column of the first row of a binary COPY's output, or null when it has no row. The format: the signature,
 * a flags word and a header extension (its length first), then per row a field count and per field a length (-1:
 * NULL) and the bytes; a field count of -1 ends it.
 */
export function firstBytea(out: Buffer): Buffer | null {
  if (out.length < SIGNATURE.length + 10 || !out.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('Not the output of a binary COPY');
  let at = SIGNATURE.length + 4;
  at += 4 + out.readUInt32BE(at);
  const fields = out.readInt16BE(at);
  if (fields === -1) return null;
  const length = out.readInt32BE(at + 2);
  if (fields < 1 || length < -1 || at + 6 + Math.max(length, 0) > out.length) throw new Error('A binary COPY row cut short');
  return length === -1 ? null : out.subarray(at + 6, at + 6 + length);
}

async function copied(client: pg.Pool | pg.Client, select: string): Promise<Buffer> {
  const connection = client instanceof pg.Pool ? await client.connect() : client;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of connection.query(copyTo(`COPY (${select}) TO STDOUT (FORMAT binary)`))) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    if (connection !== client) (connection as pg.PoolClient).release();
  }
}

const dialect = new PgDialect();

/** `query`'s text with its parameters written as literals (`$1` … in the text the dialect writes; none in its literals). */
export function inlined(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    if (typeof value === 'number') return intLiteral(value);
    if (typeof value === 'string') return textLiteral(value);
    throw new Error(`No literal for a parameter of type ${typeof value}`);
  });
}

/** The bytea of the first column of the first row `select` answers, read through a binary COPY; null without a row. */
export async function copiedBytea(client: pg.Pool | pg.Client, select: SQL): Promise<Buffer | null> {
  return firstBytea(await copied(client, inlined(select)));
}

/**
 * The bytea of the first column of the first row `select` (one column; its parameters numbers or texts) answers, raw
 * on PostgreSQL; null without a row.
 */
export async function rawBytea(db: Queryable, select: SQL): Promise<Buffer | null> {
  const client = pgOf(db);
  if (client) return copiedBytea(client, select);
  const [row] = await queryRows<Record<string, Uint8Array | null>>(db, select);
  const data = row ? Object.values(row)[0] : null;
  return data ? Buffer.from(data) : null;
}
