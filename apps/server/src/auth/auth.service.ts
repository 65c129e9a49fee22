import type { Grant } from '@bo/shared/grants';
import { ERROR_TEXTS } from '@bo/shared/errors';
import type { Db } from '../db/client.js';
import { audit } from '../lib/audit.repository.js';
import { tooManyRequests, unauthorized } from '../lib/errors.js';
import { clearFailures, recordFailure, secondsBlocked, throttleKeys } from './login-throttle.repository.js';
import { verifyPassword } from './password.js';
import { tokenHash, type TokenService } from './token.js';
import { findUserByLogin, findUserWithGrants, loadGrants } from './users.repository.js';

/** The caller of a request, with grants read fresh from the database. */
export interface AuthUser {
  userId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string | null;
  grants: Grant[];
}

interface LoginDeps {
  db: Db;
  tokens: TokenService;
  maxFailures: number;
}

/**
 * Login by user name or e-mail. Wrong or unknown credentials and disabled users all answer
 * 'The credentials are invalid'; a valid user without roles answers 'User has no grants' (both 401).
 */
export async function login(deps: LoginDeps, input: { username: string; password: string; ip: string; requestId?: string }) {
  // Failures count per account, whichever of its names (user name or e-mail) was typed; per typed
  // name only when no account matches.
  const user = await findUserByLogin(deps.db, input.username);
  const keys = throttleKeys(user?.username ?? input.username, input.ip);
  const wait = await secondsBlocked(deps.db, keys);
  if (wait > 0) throw tooManyRequests(`Too many failed login attempts. Try again in ${wait} seconds.`, wait);

  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok || user.status !== 'Enabled') {
    await recordFailure(deps.db, keys, deps.maxFailures);
    throw unauthorized(ERROR_TEXTS.credentialsInvalid, 'credentialsInvalid');
  }
  await clearFailures(deps.db, keys.slice(0, 1));
  const grants = await loadGrants(deps.db, user);
  if (grants.length === 0) throw unauthorized(ERROR_TEXTS.noGrants, 'noGrants');

  const { token, expiresIn } = await deps.tokens.sign(user.username, user.role ? [user.role] : []);
  await audit(deps.db, { username: user.username, action: 'login', requestId: input.requestId });
  return { access_token: token, token_type: 'bearer' as const, expires_in: expiresIn };
}

/**
 * Resolves a bearer token to the enabled user it names, with their grants. Refused with 401: a token that is not
 * valid (signature, expiry), was logged out (on any process: `revoked_tokens`, read in the same statement as the
 * user) or names an unknown or disabled user ('invalidToken'); a user left without grants ('noGrants', as at login).
 */
export async function authenticate(db: Db, tokens: TokenService, token: string): Promise<AuthUser> {
  const payload = await tokens.verify(token);
  const found = payload ? await findUserWithGrants(db, payload.user_name, tokenHash(token)) : undefined;
  if (!found || found.revoked || found.user.status !== 'Enabled') throw unauthorized('The session is not valid any more', 'invalidToken');
  if (found.grants.length === 0) throw unauthorized(ERROR_TEXTS.noGrants, 'noGrants');
  const { user, grants } = found;
  return {
    userId: user.userId,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    grants,
  };
}
