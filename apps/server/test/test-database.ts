import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type Database } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

/**
 * One database per test worker: an in-memory PGlite by default, or — when TEST_DATABASE_URL is set —
 * a schema of its own on that PostgreSQL server, migrated afresh at the worker's start.
 */
let shared: Promise<Database> | null = null;

export function testDatabase(): Promise<Database> {
  shared ??= (async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      const database = await openDatabase({});
      await migrate(database);
      return database;
    }
    // Named after the run (the workers' parent process), dropped by global-setup.ts at the end.
    const schema = `test_${process.ppid}_w${process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0'}`;
    const admin = await openDatabase({ url, poolSize: 1 });
    await admin.execScript(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.close();
    const database = await openDatabase({ url, schema, poolSize: 10 });
    await migrate(database);
    return database;
  })();
  return shared;
}

/** Empties every table (but the migration record) so each test starts from nothing. */
export async function resetDatabase(database: Database): Promise<void> {
  const tables = await queryRows<{ tablename: string }>(
    database.db,
    sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
  );
  if (tables.length === 0) return;
  const truncate = `TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`;
  // The last test's server may still be finishing background work (a closed stream removing its tab's presence, the
  // live sweeper): the TRUNCATE, locking every table, can deadlock with it. PostgreSQL then cancels one of the two;
  // if it chose the TRUNCATE, try again (the other transaction has ended).
  for (let attempt = 1; ; attempt++) {
    try {
      await database.execScript(truncate);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
