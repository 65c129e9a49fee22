import { lt } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { revokedTokens } from '../db/schema.js';

/**
 * Records a token as ended (logout). Answers false when it was already: a second logout with the same token
 * does nothing more. The session statement reads this table (users.repository.ts `findUserWithGrants`).
 */
export async function revokeToken(db: Queryable, token: { tokenHash: string; username: string; expiresAt: Date }): Promise<boolean> {
  const added = await db.insert(revokedTokens).values(token).onConflictDoNothing().returning({ tokenHash: revokedTokens.tokenHash });
  return added.length > 0;
}

/** Removes the revocations of tokens that expired before `before`; answers how many. */
export async function deleteRevocationsBefore(db: Queryable, before: Date): Promise<number> {
  const removed = await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, before)).returning({ tokenHash: revokedTokens.tokenHash });
  return removed.length;
}
