import { beginRestore, completeRestore, logout } from '@/lib/session';
import { getUser } from './api/get-user';

/**
 * On load: a stored session (less than 6 hours old, token cookie still valid) is confirmed by
 * reading the user info with the token; any failure logs out.
 */
export async function restoreSession(): Promise<void> {
  const restored = beginRestore();
  if (!restored) return;
  try {
    completeRestore(await getUser({ token: restored.token, alertOnError: false }));
  } catch {
    logout('unauthorized');
  }
}
