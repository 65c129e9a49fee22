import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK_KEY = 72_610_001;

function listMigrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

async function appliedMigrations(database: Database): Promise<Set<string>> {
  await database.execScript(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const rows = await queryRows<{ name: string }>(database.db, sql`SELECT name FROM schema_migrations`);
  return new Set(rows.map((r) => r.name));
}

/**
 * Applies every SQL file of ./migrations not applied yet, in name order, each in its own transaction.
 * Several processes starting at once against one PostgreSQL serialise on an advisory lock.
 */
export async function migrate(database: Database): Promise<string[]> {
  return database.withAdvisoryLock(MIGRATION_LOCK_KEY, async () => {
    const done = await appliedMigrations(database);
    const applied: string[] = [];
    for (const file of listMigrationFiles()) {
      if (done.has(file)) continue;
      const text = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
      const name = file.replace(/'/g, "''");
      await database.execScript(`BEGIN;\n${text}\n;INSERT INTO schema_migrations(name) VALUES ('${name}');\nCOMMIT;`);
      applied.push(file);
    }
    return applied;
  });
}

/** Names of migration files that are not applied (empty when the database is up to date). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(database.db, sql`SELECT name FROM schema_migrations`);
  const done = new Set(rows.map((r) => r.name));
  return listMigrationFiles().filter((f) => !done.has(f));
}
