import { inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { loginFailures } from '../db/schema.js';

/**
 * Failed logins are counted per user name and per client address, in the database (so every server
 * process sees them). From the `maxFailures`-th consecutive failure on, the key is blocked for a delay
 * that doubles with each further failure (1 s, 2 s, 4 s … capped at 15 minutes). A success clears the
 * user's counter; fifteen quiet minutes start the count again.
 */
const MAX_DELAY_SECONDS = 15 * 60;

export const throttleKeys = (username: string, ip: string) => [`user:${username.trim().toLowerCase()}`, `ip:${ip}`];

/** Seconds until the keys may try again, or 0. */
export async function secondsBlocked(db: Queryable, keys: string[]): Promise<number> {
  const rows = await db.select().from(loginFailures).where(inArray(loginFailures.key, keys));
  const now = Date.now();
  const until = Math.max(0, ...rows.map((r) => r.blockedUntil?.getTime() ?? 0));
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

export async function recordFailure(db: Queryable, keys: string[], maxFailures: number): Promise<void> {
  // A quiet quarter of an hour starts the count again.
  const nextCount = sql`CASE WHEN ${loginFailures.lastFailureAt} < now() - interval '15 minutes' THEN 1 ELSE ${loginFailures.failures} + 1 END`;
  for (const key of keys) {
    await db
      .insert(loginFailures)
      .values({ key, failures: 1, lastFailureAt: new Date(), blockedUntil: maxFailures <= 1 ? new Date(Date.now() + 1000) : null })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          failures: nextCount,
          lastFailureAt: sql`now()`,
          blockedUntil: sql`CASE WHEN ${nextCount} >= ${maxFailures}
            THEN now() + make_interval(secs => LEAST(${MAX_DELAY_SECONDS}, power(2, ${nextCount} - ${maxFailures})))
            ELSE NULL END`,
        },
      });
  }
}

export async function clearFailures(db: Queryable, keys: string[]): Promise<void> {
  await db.delete(loginFailures).where(inArray(loginFailures.key, keys));
}
