/** The SQL of the metrics (plugins/metrics.ts): what it reads of the shared jobs queue and locks at each scrape. */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../db/client.js';
import { liveLock } from '../lib/locks.repository.js';

/** The queued and running jobs per kind and status, with the age in seconds of the oldest. */
export async function queuedAndRunningJobs(db: Queryable) {
  return queryRows<{ kind: string; status: string; n: number; oldest: number | null }>(
    db,
    sql`SELECT kind, status, count(*)::int AS n,
               extract(epoch FROM now() - min(created_at))::float8 AS oldest
        FROM jobs WHERE status IN ('QUEUED', 'RUNNING') GROUP BY kind, status`,
  );
}

/** How many item locks are live. */
export async function liveLockCount(db: Queryable, ttlMinutes: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM locks WHERE ${liveLock(sql.raw('locks'), ttlMinutes)}`);
  return Number(row?.n ?? 0);
}
