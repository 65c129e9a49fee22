import type { LoginResponse } from '@bo/shared/auth';
import type { Db } from '../db/client.js';
import { audit } from '../lib/audit.repository.js';
import { unauthorized } from '../lib/errors.js';
import { releaseLocksOf } from '../lib/locks.repository.js';
import { revokeToken } from './revoked-tokens.repository.js';
import { tokenHash, type TokenService } from './token.js';

interface SessionDeps {
  db: Db;
  tokens: TokenService;
}

/**
 * The caller's current token again, with the seconds it has left (GET /api/authorization/session). The route is
 * behind the auth hook, which has already refused a revoked token and a user who is disabled or has no grants.
 */
export async function currentSession(deps: Pick<SessionDeps, 'tokens'>, token: string | null, now = Date.now()): Promise<LoginResponse> {
  const payload = token ? await deps.tokens.verify(token) : null;
  if (!token || !payload) throw unauthorized('The session is not valid any more', 'invalidToken');
  return { access_token: token, token_type: 'bearer', expires_in: Math.max(0, payload.exp - Math.floor(now / 1000)) };
}

/**
 * How long after its expiry a token still names the user at logout: the browser's expiry timer logs out
 * at the token's expiry, so its logout call arrives with a token that has just expired. Such a token does
 * nothing else here, and all it can do is end its own user's editing (release their locks).
 */
export const LOGOUT_GRACE_SECONDS = 5 * 60;

/**
 * Logout (POST /api/authorization/logout). Public and idempotent: an expired, forged or missing token
 * still ends the browser's session (the route clears the cookie). A token that is still valid (or expired
 * less than LOGOUT_GRACE_SECONDS ago) names the user whose session ends: the token is revoked (`revoked_tokens`:
 * every process refuses it from the next call on; the user's other sessions go on), and every lock they hold is
 * released, in one transaction with the audit entry, so their work is never stranded behind a lock until it lapses.
 * A token already revoked does nothing more: a repeat, or a copy of the token, cannot release the locks that
 * the user's other sessions took since.
 */
export async function logout(deps: SessionDeps, input: { token: string | null; requestId?: string }): Promise<void> {
  const token = input.token;
  const payload = token ? await deps.tokens.verify(token, { graceSeconds: LOGOUT_GRACE_SECONDS }) : null;
  if (!token || !payload) return;
  await deps.db.transaction(async (tx) => {
    const revoked = await revokeToken(tx, { tokenHash: tokenHash(token), username: payload.user_name, expiresAt: new Date(payload.exp * 1000) });
    if (!revoked) return;
    const released = await releaseLocksOf(tx, payload.user_name);
    const total = released.module + released.cluster + released.macroFamily;
    await audit(tx, { username: payload.user_name, action: 'logout', requestId: input.requestId, summary: { locksReleased: total, byKind: released } });
  });
}
