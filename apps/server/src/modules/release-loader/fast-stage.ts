/**
 * The fast way of a large CSV file into its staging table, on PostgreSQL: the file's bytes go straight
 * to `COPY … FROM STDIN` into a table of raw text cells (the database parses the CSV), one query makes
 * sure every cell is plain (plain-cells.ts), and one INSERT … SELECT types them into the staging table —
 * no row passes through JavaScript. Used for the Sku Registry, Module Composition and Cluster
 * Composition; the Customer Segmentation is small and has rules between its rows.
 *
 * Anything unusual — an xlsx file, a header the fast path does not know, a cell that is not plain, a
 * quoted line break (the rows would not be the file's lines), a row of another length, a module row
 * whose item fields differ from the item's first row — undoes it (a savepoint) and answers null: the
 * caller then stages the file the careful way (stage-file.ts), which reports every fault with its row.
 * Both ways stage the same rows with the same values and row numbers (release-loader.test.ts).
 */
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type SQL } from 'drizzle-orm';
import { from as copyFrom } from 'pg-copy-streams';
import { pgClientOf, queryRows, type Queryable } from '../../db/client.js';
import { FORMATS, type ColumnSpec, type ReleaseFileKind } from './formats.js';
import { notPlain, plainValue } from './plain-cells.js';
import { detectDelimiter, formatOf, type FileSource } from './read-records.js';
import { affected, HEAD_COLUMNS, HEAD_TABLES, STAGE, type HeadKind } from './release-loader.repository.js';

/** The kinds worth the fast path: the big files without rules between rows of different items. */
export const FAST_KINDS: readonly ReleaseFileKind[] = ['registry', 'module', 'cluster'];

const RAW = 'rl_raw';
const RAW_HEAD = 'rl_raw_head';
const ident = (name: string) => sql.raw(`"${name}"`);

interface Header {
  specs: ColumnSpec[];
  delimiter: ';' | ',';
  /** The bytes after the header line in the first chunk. */
  rest: Buffer;
  /** The header line's bytes, with its line break. */
  headerBytes: number;
}

/** The header line, when it is simple: known column names, each once, every required one, no quotes, no blanks. */
function readHeader(kind: ReleaseFileKind, head: Buffer): Header | null {
  const end = head.indexOf(0x0a);
  if (end === -1) return null;
  let line = head.subarray(0, end).toString('utf8');
  if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.includes('"')) return null;
  const delimiter = detectDelimiter(head);
  const byName = new Map(FORMATS[kind].columns.map((c) => [c.name.toLowerCase(), c]));
  const specs: ColumnSpec[] = [];
  for (const cell of line.split(delimiter)) {
    const spec = byName.get(cell.trim().toLowerCase());
    if (!spec || specs.includes(spec)) return null;
    specs.push(spec);
  }
  if (FORMATS[kind].columns.some((c) => c.required && !specs.includes(c))) return null;
  return { specs, delimiter, rest: head.subarray(end + 1), headerBytes: end + 1 };
}

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

/** Counts bytes (progress) and line breaks (to compare with the rows COPY read). */
class Counter extends Transform {
  lines = 0;
  bytes = 0;
  lastByte = 0x0a;
  constructor(private readonly onBytes: (bytes: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    let at = chunk.indexOf(0x0a);
    while (at !== -1) {
      this.lines++;
      at = chunk.indexOf(0x0a, at + 1);
    }
    this.bytes += chunk.length;
    if (chunk.length > 0) this.lastByte = chunk[chunk.length - 1]!;
    this.onBytes(this.bytes);
    done(null, chunk);
  }
}

const exists = async (db: Queryable, query: SQL) => (await queryRows<{ found: boolean }>(db, sql`SELECT EXISTS (${query}) AS found`))[0]!.found;

/**
 * Stages `source` the fast way and answers its row count, or null (nothing staged) when the file must
 * go the careful way. Needs PostgreSQL through the `pg` driver; the embedded database answers null.
 */
export async function stageFast(db: Queryable, kind: ReleaseFileKind, source: FileSource, onBytes: (bytes: number) => void): Promise<number | null> {
  const client = pgClientOf(db);
  if (!client || !FAST_KINDS.includes(kind)) return null;
  const stream = source.open(db);
  const iterator = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const head = await firstLine(iterator);
  const header = head.length > 0 && formatOf(head) === 'csv' ? readHeader(kind, head) : null;
  if (!header) {
    stream.destroy();
    return null;
  }
  await db.execute(sql`SAVEPOINT rl_fast`);
  try {
    const rows = await copyAndType(db, client, kind, header, (async function* () {
      yield header.rest;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    })(), (bytes) => onBytes(header.headerBytes + bytes));
    if (rows === null) {
      await db.execute(sql`ROLLBACK TO SAVEPOINT rl_fast`);
      return null;
    }
    await db.execute(sql`RELEASE SAVEPOINT rl_fast`);
    return rows;
  } catch {
    // A row COPY could not read, a cast that failed: the careful way will say what and where.
    await db.execute(sql`ROLLBACK TO SAVEPOINT rl_fast`);
    return null;
  } finally {
    stream.destroy();
  }
}

async function copyAndType(
  db: Queryable,
  client: NonNullable<ReturnType<typeof pgClientOf>>,
  kind: ReleaseFileKind,
  header: Header,
  body: AsyncIterable<Buffer>,
  onBytes: (bytes: number) => void,
): Promise<number | null> {
  const { specs } = header;
  const rawColumns = specs.map((s) => `"${s.db}" text`).join(', ');
  // Row 1 is the header: the first data row is row 2, as the careful way numbers them.
  await db.execute(sql.raw(`CREATE TEMP TABLE ${RAW} (row_no integer GENERATED ALWAYS AS IDENTITY (START WITH 2), ${rawColumns}) ON COMMIT DROP`));
  const counter = new Counter(onBytes);
  const copy = client.query(
    copyFrom(`COPY ${RAW} (${specs.map((s) => `"${s.db}"`).join(', ')}) FROM STDIN WITH (FORMAT csv, DELIMITER '${header.delimiter}')`),
  );
  await pipeline(Readable.from(body), counter, copy);
  const rows = Number(copy.rowCount);
  // One row per line: otherwise a quoted line break moved the rows off the file's lines (or a line was empty).
  const lines = counter.lines + (counter.bytes > 0 && counter.lastByte !== 0x0a ? 1 : 0);
  if (rows !== lines) return null;

  const columns = FORMATS[kind].columns;
  const raw = (spec: ColumnSpec, alias = 'r') => (specs.includes(spec) ? sql`${sql.raw(alias)}.${ident(spec.db)}` : sql`NULL::text`);
  const headKind: HeadKind | null = kind === 'module' || kind === 'cluster' ? kind : null;
  const headColumns = headKind ? columns.filter((c) => HEAD_COLUMNS[headKind].includes(c.db)) : [];
  // The item fields are checked once per item (on its first row, below): every row repeats them.
  const rowColumns = columns.filter((c) => !headColumns.includes(c));
  if (headKind && !(await writeHeads(db, headKind, headColumns, raw))) return null;
  // One pass: the plain rows are typed into the staging table; a row left out means one is not plain.
  const stage = sql.raw(STAGE[kind]);
  const typed = await db.execute(
    sql`INSERT INTO ${stage} (row_no, ${sql.join(columns.map((c) => ident(c.db)), sql`, `)})
        SELECT r.row_no, ${sql.join(columns.map((c) => plainValue(c, raw(c))), sql`, `)} FROM ${sql.raw(RAW)} r
        WHERE (${sql.join(rowColumns.map((c) => notPlain(c, raw(c))), sql` OR `)}) IS NOT TRUE`,
  );
  if (affected(typed) !== rows) return null;
  if (kind === 'cluster' && (await exists(db, sql`SELECT 1 FROM rl_cluster WHERE (kind <> 'CLUSTER' AND value IS NULL) OR (kind <> 'MODULE' AND module_status IS NOT NULL)`))) {
    return null;
  }
  await db.execute(sql.raw(`DROP TABLE ${headKind ? `${RAW}, ${RAW_HEAD}` : RAW}`));
  return rows;
}

/**
 * The head rows (each item's first row), from the raw cells, in one hash aggregate over the item fields:
 * false when an item has two versions of its fields (a later row differs: the careful way says which), or
 * an item field is not plain.
 */
async function writeHeads(db: Queryable, kind: HeadKind, headColumns: ColumnSpec[], raw: (spec: ColumnSpec, alias?: string) => SQL): Promise<boolean> {
  const [key, month] = HEAD_COLUMNS[kind].map((name) => headColumns.find((c) => c.db === name)!);
  await db.execute(
    sql`CREATE TEMP TABLE ${sql.raw(RAW_HEAD)} ON COMMIT DROP AS
        SELECT min(r.row_no) AS row_no, ${sql.join(headColumns.map((c) => sql`${raw(c)} AS ${ident(c.db)}`), sql`, `)} FROM ${sql.raw(RAW)} r
        GROUP BY ${sql.join(headColumns.map((c) => raw(c)), sql`, `)}`,
  );
  const h = (c: ColumnSpec) => sql`h.${ident(c.db)}`;
  const [counts] = await queryRows<{ heads: number; items: number }>(
    db,
    sql`SELECT count(*)::int AS heads, count(DISTINCT (${h(key!)}, ${h(month!)}))::int AS items FROM ${sql.raw(RAW_HEAD)} h`,
  );
  if (counts!.heads !== counts!.items) return false;
  if (await exists(db, sql`SELECT 1 FROM ${sql.raw(RAW_HEAD)} h WHERE ${sql.join(headColumns.map((c) => notPlain(c, h(c))), sql` OR `)}`)) return false;
  const names = sql.join(HEAD_COLUMNS[kind].map((name) => ident(name)), sql`, `);
  const byName = (name: string) => headColumns.find((c) => c.db === name)!;
  await db.execute(
    sql`INSERT INTO ${sql.raw(HEAD_TABLES[kind])} (row_no, ${names})
        SELECT h.row_no, ${sql.join(HEAD_COLUMNS[kind].map((name) => plainValue(byName(name), h(byName(name)))), sql`, `)} FROM ${sql.raw(RAW_HEAD)} h`,
  );
  return true;
}
