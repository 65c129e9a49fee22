import type { LoginResponse } from '@bo/shared/auth';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import { unauthorized } from '../../lib/errors.js';
import type { TokenService } from './token.js';

export interface SessionDeps {
  db: Db;
  tokens: TokenService;
}

/** The caller's current token again, with the seconds it has left (GET /api/authorization/session). */
export async function currentSession(deps: Pick<SessionDeps, 'tokens'>, token: string | null, now = Date.now()): Promise<LoginResponse> {
  const payload = token ? await deps.tokens.verify(token) : null;
  if (!token || !payload) throw unauthorized('The session is not valid any more', 'invalidToken');
  return { access_token: token, token_type: 'bearer', expires_in: Math.max(0, payload.exp - Math.floor(now / 1000)) };
}

/**
 * Logout (POST /api/authorization/logout). Public and idempotent: an expired, forged or missing token
 * still ends the browser's session (the route clears the cookie). A token that is still valid names the
 * user whose session ends: the place for anything to release on their behalf.
 */
export async function logout(deps: SessionDeps, input: { token: string | null; requestId?: string }): Promise<void> {
  const payload = input.token ? await deps.tokens.verify(input.token) : null;
  if (!payload) return;
  await audit(deps.db, { username: payload.user_name, action: 'logout', requestId: input.requestId });
}
