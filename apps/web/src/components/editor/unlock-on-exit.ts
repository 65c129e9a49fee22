import { buildUrl } from '@/lib/api-client';
import { getSession } from '@/lib/session';

/**
 * Releases locks from a closing tab: a keepalive fetch outlives the page and, unlike sendBeacon, can
 * carry the Authorization header (the server takes the token from the header only for writes).
 */
export function unlockOnPageExit(path: string, keys: readonly object[]): void {
  const token = getSession().token;
  if (!token || keys.length === 0) return;
  void fetch(buildUrl('/api', path), {
    method: 'POST',
    keepalive: true,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(keys),
  }).catch(() => undefined);
}
