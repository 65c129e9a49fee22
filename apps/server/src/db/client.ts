import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';
import { lowerBackendPriority } from './background-priority.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that runs queries: the database or an open transaction. */
export type Queryable = Db | Tx;

type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  kind: DatabaseKind;
  db: Db;
  /**
   * The handle background jobs run on (job-runner.ts): on PostgreSQL a small pool of its own whose backends run at a
   * lower CPU priority when PostgreSQL is on this machine (background-priority.ts), so a release load, a massive edit
   * or an export never competes on equal terms with the planners' calls; on the embedded database `db` itself.
   */
  background: Db;
  /** Runs a script of several SQL statements (migrations). */
  execScript(sqlText: string): Promise<void>;
  /** Runs fn while holding a session-level advisory lock (serialises migrations and seeding across processes). */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** The PostgreSQL pool's connections (null on the embedded database, which has one). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * LISTENs on the live events' channel (`live_channel()`, migration 0016; docs/LIVE.md): on PostgreSQL on a connection
   * of its own, outside the pool, reconnected with backoff when lost (`onReconnect` then: notifications may have been
   * missed meanwhile); on the embedded database in process. Resolves once listening; the answer stops it.
   */
  listen(onNotify: (payload: string) => void, events?: ListenEvents): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

interface ListenEvents {
  onReconnect?(): void;
  onError?(error: unknown): void;
}

interface DatabaseOptions {
  /** PostgreSQL connection string; when absent an embedded PGlite database is used. */
  url?: string | undefined;
  /** Directory of the embedded database; undefined = in memory (tests). */
  dataDir?: string | undefined;
  /** PostgreSQL schema to use as search_path (tests give each worker its own). */
  schema?: string | undefined;
  poolSize?: number | undefined;
  /** How many jobs run at once on this process (the job process's WORKERS): sizes the background pool. */
  jobConcurrency?: number | undefined;
  /** Logs once why the background pool's backends keep their priority (PostgreSQL elsewhere, or not allowed). */
  onPriorityRefused?: ((reason: string) => void) | undefined;
}

/**
 * The background pool's size: a job runs its steps one after another, but a step may read (a stored file's pieces)
 * while its transaction is open: two connections per job running at once, and one spare (3 for one job at a time).
 * Idle connections close after BACKGROUND_IDLE_MS, so between jobs none is held.
 */
const backgroundPoolSize = (jobConcurrency = 1) => 2 * Math.max(1, jobConcurrency) + 1;
const BACKGROUND_IDLE_MS = 10_000;

/**
 * bytea (type 17) as hex through Node's Buffer: PGlite's own conversion takes ~13 s to write and ~3 s to
 * read a 17 MB export file; this takes ~1 s and ~0.3 s, and answers a Buffer like pg does.
 */
const PGLITE_OPTIONS = {
  parsers: { 17: (x: string) => Buffer.from(x.slice(2), 'hex') },
  serializers: { 17: (x: Uint8Array) => '\\x' + Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('hex') },
};

/** The query that names the live events' channel of the connection's schema (migration 0016). */
const LIVE_CHANNEL_SQL = 'SELECT live_channel() AS channel';

/** A Database of one driver: its Drizzle handle, a script runner that drops the driver's answer, and the driver's own rest. */
function databaseOf(
  kind: DatabaseKind,
  drizzleDb: unknown,
  runScript: (sqlText: string) => Promise<unknown>,
  rest: Omit<Database, 'kind' | 'db' | 'background' | 'execScript'>,
  backgroundDb: unknown = drizzleDb,
): Database {
  return {
    kind,
    db: drizzleDb as Db,
    background: backgroundDb as Db,
    execScript: async (text) => {
      await runScript(text);
    },
    ...rest,
  };
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts) : openPglite(opts.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let client: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir, PGLITE_OPTIONS);
  } else {
    client = await PGlite.create(PGLITE_OPTIONS);
  }
  return databaseOf('pglite', drizzlePglite(client, { schema }), (text) => client.exec(text), {
    // One embedded database belongs to one process: there is nobody to serialise against.
    withAdvisoryLock: (_key, fn) => fn(),
    poolStats: () => null,
    listen: async (onNotify) => {
      const [row] = (await client.query<{ channel: string }>(LIVE_CHANNEL_SQL)).rows;
      const unlisten = await client.listen(row!.channel, onNotify);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    close: () => client.close(),
  });
}

/**
 * How long an idle connection of the planners' pool stays open: 5 minutes, not `pg`'s 10 seconds. A backend learns as it
 * serves: the catalogs it read, the PL/pgSQL of the triggers compiled, each named statement parsed and, after five runs,
 * planned no more; a connection opened again after every pause of 10 s paid all of it anew (~6–11 ms of PostgreSQL for
 * the first lock of a backend, ~1 ms more for each of the next five; docs/performance.md "Connections kept warm").
 */
const POOL_IDLE_MS = 5 * 60_000;

/**
 * Settings of every connection of the server's pool, sent at connection start (no extra round trip). JIT is
 * off: the product's statements are short, and PostgreSQL's JIT compiled the home module search (its cost
 * passes jit_above_cost at the benchmark's scale) for 20–40 ms of a 30 ms query (docs/performance.md, section 1).
 * A `?options=` in DATABASE_URL replaces these.
 */
export function sessionOptions(schema?: string): string {
  return ['-c jit=off', ...(schema ? [`-c search_path=${schema}`] : [])].join(' ');
}

/**
 * Settings of the background pool's connections (the jobs'): the server pool's, and no parallel query. A job's backend
 * runs at the background priority (background-priority.ts), but the workers of a parallel query are new processes of
 * the postmaster, at the planners' priority: an export's reads, planned parallel, took cores from the planners' calls
 * at full priority (docs/performance.md "A job process of its own"). A job's statement runs in its own backend alone.
 */
export function backgroundSessionOptions(schema?: string): string {
  return `${sessionOptions(schema)} -c max_parallel_workers_per_gather=0`;
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  // Numeric and bigint come back as strings from pg; the schema maps them with mode 'number'.
  const newPool = (config: pg.PoolConfig) => {
    const made = new pg.Pool({ connectionString: url, options: sessionOptions(opts.schema), ...config });
    made.on('error', () => {
      /* idle client errors are reported on the next query */
    });
    return made;
  };
  const pool = newPool({ max: opts.poolSize ?? 10, idleTimeoutMillis: POOL_IDLE_MS });
  if (opts.schema) {
    const c = await pool.connect();
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema.replace(/"/g, '')}"`);
    } finally {
      c.release();
    }
  }
  const background = newPool({ max: backgroundPoolSize(opts.jobConcurrency), idleTimeoutMillis: BACKGROUND_IDLE_MS, options: backgroundSessionOptions(opts.schema) });
  let refusalLogged = false;
  background.on('connect', (client) => {
    // Queued on the client before the query it was opened for, so the backend is reniced before its first work ends.
    void lowerBackendPriority(client).then((refusal) => {
      if (refusal === null || refusalLogged) return;
      refusalLogged = true;
      opts.onPriorityRefused?.(refusal);
    });
  });
  return databaseOf('postgres', drizzlePg(pool, { schema }), (text) => pool.query(text), {
    withAdvisoryLock: async (key, fn) => {
      const c = await pool.connect();
      try {
        await c.query('SELECT pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await c.query('SELECT pg_advisory_unlock($1)', [key]);
        }
      } finally {
        c.release();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (onNotify, events) => listenPostgres(url, sessionOptions(opts.schema), onNotify, events),
    close: async () => {
      await Promise.all([pool.end(), background.end()]);
    },
  }, drizzlePg(background, { schema }));
}

/** Backoff of the listening connection's reconnections: doubling from the first, up to the last. */
const LISTEN_RETRY_MS = [250, 8000] as const;

/**
 * One `pg.Client` outside the pool that LISTENs on the channel the database names (`live_channel()`: its schema's).
 * A lost connection (the server restarted, a network cut) is opened again, after 250 ms doubling up to 8 s.
 */
async function listenPostgres(url: string, options: string, onNotify: (payload: string) => void, events: ListenEvents = {}): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let delay: number = LISTEN_RETRY_MS[0];

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, options });
    c.on('notification', (msg) => {
      if (msg.payload !== undefined) onNotify(msg.payload);
    });
    c.on('error', (error) => {
      events.onError?.(error);
      lost(c);
    });
    c.on('end', () => lost(c));
    await c.connect();
    try {
      const { rows } = await c.query<{ channel: string }>(LIVE_CHANNEL_SQL);
      await c.query(`LISTEN "${rows[0]!.channel.replace(/"/g, '""')}"`);
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    client = c;
    delay = LISTEN_RETRY_MS[0];
  };

  const lost = (c: pg.Client) => {
    if (client !== c || stopped) return;
    client = null;
    c.end().catch(() => undefined);
    schedule();
  };

  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => events.onReconnect?.(),
        (error: unknown) => {
          events.onError?.(error);
          delay = Math.min(delay * 2, LISTEN_RETRY_MS[1]);
          schedule();
        },
      );
    }, delay);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
}

/** Runs raw SQL and returns its rows (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Queryable, query: import('drizzle-orm').SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** The part of Drizzle's session `queryRowsNamed` uses (`db.execute` is the same call without a name; not a public API). */
interface NamingSession {
  prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string | undefined, arrayMode: boolean): { execute(): Promise<unknown> };
}

const namedTexts = new Map<string, string>();
const namingDialect = new PgDialect();

/**
 * As `queryRows`, sent under `name` on PostgreSQL: each pooled connection parses the statement once and, once its
 * generic plan proves as cheap as a custom one (after five runs), plans it no more (docs/performance.md "Save and
 * module open: CPU per call"). For the hot reads of one item, whose text never changes: a name is given to one SQL
 * text only (an Error otherwise). No name (undefined): `queryRows`. On the embedded database the name is not used.
 */
export async function queryRowsNamed<T>(db: Queryable, name: string | undefined, query: import('drizzle-orm').SQL): Promise<T[]> {
  if (name === undefined) return queryRows<T>(db, query);
  const compiled = namingDialect.sqlToQuery(query);
  keepNamedText(name, compiled.sql);
  const session = (db as unknown as { session: NamingSession }).session;
  const res = (await session.prepareQuery(compiled, undefined, name, false).execute()) as { rows: T[] };
  return res.rows;
}

/** A name stands for one SQL text: `pg` would refuse a second text under a name its connection has prepared. */
function keepNamedText(name: string, text: string): void {
  const known = namedTexts.get(name);
  if (known === undefined) namedTexts.set(name, text);
  else if (known !== text) throw new Error(`The statement ${name} was given another text`);
}

/** A statement prepared by Drizzle (a select's `.prepare(name)`), run with the values of its placeholders. */
export interface PreparedStatement<T> {
  execute(values: Record<string, unknown>): Promise<T>;
}

/** The text a prepared query holds (both drivers' prepared queries keep it as `queryString`). */
const preparedText = (prepared: unknown, orElse: () => string): string => {
  const text = (prepared as { queryString?: unknown }).queryString;
  return typeof text === 'string' ? text : orElse();
};

/** The statements `preparedOnce` built, by the driver's client they run on (`builtFor`) and name, with their builder. */
const builtStatements = new WeakMap<object, Map<string, { build: unknown; prepared: PreparedStatement<unknown> }>>();

/**
 * What a statement prepared by Drizzle is bound to: its session's driver client — the pool, or a transaction's pooled
 * connection, the same object from one transaction to the next on that connection (`pg`); the embedded database's
 * transaction object, new in each. The database object when it has no session (not expected).
 */
const builtFor = (db: Queryable): object => (db as unknown as { session?: { client?: object } }).session?.client ?? db;

/**
 * A Drizzle select whose values are all placeholders (`sql.placeholder`), built and prepared under `name` once per
 * driver client, then only run with `values`: the query builder and its compilation (~0.1–0.2 ms a call, the largest
 * part of a call's Drizzle cost) are paid once per process for the pool and once per pooled connection inside
 * transactions (on the embedded database, once per transaction). On PostgreSQL each pooled connection parses it once
 * (as `queryRowsNamed`); on the embedded database the name is not used. Hot reads of one item and the session's user
 * (docs/performance.md "Statements built once"). `build` is kept with the statement: give one function (not an arrow
 * made at each call, which would be built again every time).
 */
export async function preparedOnce<T>(db: Queryable, name: string, build: (db: Queryable) => { prepare(name: string): PreparedStatement<T> }, values: Record<string, unknown>): Promise<T> {
  const key = builtFor(db);
  let byName = builtStatements.get(key);
  if (!byName) builtStatements.set(key, (byName = new Map()));
  const built = byName.get(name);
  // Kept for its builder: another builder under the name is built and its text checked (`keepNamedText`).
  let prepared = built?.build === build ? (built.prepared as PreparedStatement<T>) : undefined;
  if (!prepared) {
    const query = build(db);
    prepared = query.prepare(name);
    keepNamedText(name, preparedText(prepared, () => (query as unknown as { toSQL(): { sql: string } }).toSQL().sql));
    byName.set(name, { build, prepared: prepared as PreparedStatement<unknown> });
  }
  return prepared.execute(values);
}


/**
 * The `pg` connection an open transaction runs on (for COPY, which the query builder cannot send), or
 * null: on the embedded database, or outside a transaction (a pool has no one connection). Reads
 * drizzle's session, which is not a public API: the release loader's tests on PostgreSQL cover it.
 */
export function pgClientOf(db: Queryable): pg.PoolClient | null {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? (client as pg.PoolClient) : null;
}
