/**
 * PostgreSQL's replica mode (`session_replication_role = replica`) for a bulk write whose foreign keys the writer
 * vouches for itself, set-wise: in that mode PostgreSQL leaves out the per-row foreign-key triggers (an index probe
 * and a row lock for each written row and key) and every trigger not `ENABLE ALWAYS`. pg_restore
 * `--disable-triggers` works the same way. The demo seed (seed/foreign-keys.ts) and the release load's module lines
 * (release-loader.repository.ts) use it; docs/operations.md says how to allow it to a database user that is not a
 * superuser.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from './client.js';

/**
 * Whether this session may turn replica mode on: a superuser (always on the embedded database), or a user given
 * `GRANT SET ON PARAMETER session_replication_role` (PostgreSQL 15 and later).
 */
export async function mayUseReplicaMode(tx: Queryable): Promise<boolean> {
  const [row] = await queryRows<{ may: boolean }>(
    tx,
    sql`SELECT current_setting('is_superuser') = 'on' OR has_parameter_privilege('session_replication_role', 'SET') AS may`,
  );
  return row?.may === true;
}

/**
 * Runs `write` in replica mode, then puts the session's mode back, both local to the current transaction (`SET
 * LOCAL`). When `write` throws, the mode stays until the caller rolls back (the transaction or its savepoint), which
 * puts it back too. The caller checks `mayUseReplicaMode` first.
 */
export async function inReplicaMode<T>(tx: Queryable, write: () => Promise<T>): Promise<T> {
  const [before] = await queryRows<{ mode: string }>(tx, sql`SELECT current_setting('session_replication_role') AS mode`);
  await tx.execute(sql`SET LOCAL session_replication_role = replica`);
  const result = await write();
  await tx.execute(sql`SELECT set_config('session_replication_role', ${before?.mode ?? 'origin'}, true)`);
  return result;
}
