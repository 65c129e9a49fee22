import { beginRestore, completeRestore, logout } from '@/lib/session';
import { getCurrentSession } from './api/get-session';
import { getUser } from './api/get-user';

/**
 * On load: a stored session (less than 6 hours old) gets its token back from the server and is
 * confirmed by reading the user info, both calls authenticated by the HttpOnly session cookie; any
 * failure (no cookie, expired or revoked token, disabled user) logs out.
 */
export async function restoreSession(): Promise<void> {
  const restored = beginRestore();
  if (!restored) return;
  try {
    // Both GETs are authenticated by the cookie, so they go out together.
    const [session, user] = await Promise.all([getCurrentSession(), getUser({ token: null, alertOnError: false })]);
    completeRestore(session.access_token, user, session.expires_in);
  } catch {
    logout('unauthorized');
  }
}
