/**
 * Fast bulk inserts for the demo data: rows are buffered per table and written as
 * `INSERT … SELECT FROM unnest($1::type[], $2::type[], …)`, one array parameter per column, so a
 * batch of any size needs only as many bind parameters as the table has columns (far below the
 * 65,535 limit) and PostgreSQL parses one short statement per batch. The next batch is built while
 * the previous one runs (BulkLoader keeps one statement in flight).
 */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/client.js';

type InsertRow<T extends PgTable> = T['$inferInsert'];

interface ColumnPlan {
  key: string;
  name: string;
  /** Array element type of the parameter. */
  paramType: string;
  /** Cast applied in the select list (jsonb travels as text). */
  cast: string | null;
}

/**
 * The queue of one transaction's inserts: one statement in flight at a time (a connection runs one
 * query at a time anyway), while the caller builds the next batch.
 */
export class BulkLoader {
  private pending: Promise<void> = Promise.resolve();
  private failure: { error: unknown; table: string } | null = null;

  constructor(private readonly db: Queryable) {}

  writer<T extends PgTable>(table: T, opts?: WriterOptions<T>): BatchWriter<T> {
    return new BatchWriter(this, table, opts);
  }

  /** Queues a statement once the previous one has finished. */
  async submit(query: SQL, table: string): Promise<void> {
    await this.pending;
    this.throwIfFailed();
    this.pending = this.db.execute(query).then(
      () => undefined,
      (error: unknown) => {
        this.failure = { error, table };
      },
    );
  }

  /** Waits for the statement in flight. */
  async settle(): Promise<void> {
    await this.pending;
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (!this.failure) return;
    const { error, table } = this.failure;
    this.failure = null;
    throw error instanceof Error ? new Error(`Writing ${table} failed: ${error.message}`, { cause: error }) : error;
  }
}

export interface WriterOptions<T extends PgTable> {
  /** Columns left to their defaults. */
  omit?: readonly (keyof InsertRow<T> & string)[];
  /** Rows per statement (default 10,000). */
  batchSize?: number;
}

/** One writer per table of `Tables` (a part of the schema, `Pick<typeof schema, …>`), under the table's name. */
export type BatchWriters<Tables extends Record<string, PgTable>> = { [K in keyof Tables]: BatchWriter<Tables[K]> };

export class BatchWriter<T extends PgTable> {
  readonly tableName: string;
  /** Rows handed to the writer so far. */
  rows = 0;
  private readonly plan: ColumnPlan[];
  private buffer: unknown[][];
  private buffered = 0;
  private readonly parents: BatchWriter<PgTable>[] = [];
  private readonly batchSize: number;

  /**
   * Writes every column of the table but the omitted ones (which take their defaults): a value
   * missing from a row is written as NULL, so a forgotten NOT NULL column fails loudly.
   */
  constructor(
    private readonly loader: BulkLoader,
    table: T,
    opts: WriterOptions<T> = {},
  ) {
    this.tableName = getTableConfig(table).name;
    this.batchSize = opts.batchSize ?? 10_000;
    const omit = new Set<string>(opts.omit ?? []);
    const columns = getTableColumns(table) as Record<string, { name: string; getSQLType(): string }>;
    this.plan = Object.entries(columns)
      .filter(([key]) => !omit.has(key))
      .map(([key, column]) => {
        const type = arrayElementType(column.getSQLType());
        return type === 'jsonb' || type === 'json'
          ? { key, name: column.name, paramType: 'text', cast: type }
          : { key, name: column.name, paramType: type, cast: null };
      });
    this.buffer = this.plan.map(() => []);
  }

  /** Rows of `parent` that are still buffered are written before each batch of this table (foreign keys). */
  after(parent: BatchWriter<PgTable>): this {
    this.parents.push(parent);
    return this;
  }

  async add(row: InsertRow<T>): Promise<void> {
    const record = row as Record<string, unknown>;
    for (let i = 0; i < this.plan.length; i++) {
      const column = this.plan[i]!;
      const value = record[column.key];
      this.buffer[i]!.push(
        value === undefined || value === null
          ? null
          : value instanceof Date
            ? value.toISOString()
            : column.cast
              ? JSON.stringify(value)
              : value,
      );
    }
    this.rows++;
    if (++this.buffered >= this.batchSize) await this.flush();
  }

  /** Queues what is buffered (without waiting for it to be written). */
  async flush(): Promise<void> {
    for (const parent of this.parents) await parent.flush();
    if (this.buffered === 0) return;
    const columns = this.buffer;
    this.buffer = this.plan.map(() => []);
    this.buffered = 0;
    await this.loader.submit(this.insertStatement(columns), this.tableName);
  }

  /** Writes everything and waits until the database has it; answers the number of rows. */
  async finish(): Promise<number> {
    await this.flush();
    await this.loader.settle();
    return this.rows;
  }

  private insertStatement(columns: unknown[][]): SQL {
    const names = sql.raw(this.plan.map((c) => `"${c.name}"`).join(', '));
    const aliases = this.plan.map((_, i) => `c${i}`);
    const selectList = sql.raw(this.plan.map((c, i) => (c.cast ? `c${i}::${c.cast}` : `c${i}`)).join(', '));
    const arrays = sql.join(
      this.plan.map((c, i) => sql`${sql.param(columns[i])}::${sql.raw(c.paramType)}[]`),
      sql`, `,
    );
    return sql`INSERT INTO ${sql.raw(`"${this.tableName}"`)} (${names}) SELECT ${selectList} FROM unnest(${arrays}) AS t(${sql.raw(aliases.join(', '))})`;
  }
}

/** The element type to declare for an array parameter of a column of this SQL type. */
function arrayElementType(sqlType: string): string {
  const t = sqlType.toLowerCase();
  if (t === 'serial') return 'integer';
  if (t === 'bigserial') return 'bigint';
  if (t.startsWith('numeric')) return 'numeric';
  return t;
}
