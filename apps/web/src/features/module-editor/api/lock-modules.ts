import { z } from 'zod';
import type { ModuleKey } from '@bo/shared/modules';
import { moduleLockResultSchema } from '@bo/shared/modules';
import { api, buildUrl } from '@/lib/api-client';
import { getSession } from '@/lib/session';

export type ModuleLockResult = z.infer<typeof moduleLockResultSchema>;

/** POST /api/module/lock: takes (or renews) the locks; `acquired: false` means read-only. */
export function lockModules(keys: ModuleKey[]) {
  return api.post('/module/lock', keys, { schema: z.array(moduleLockResultSchema), alertOnError: false });
}

/** POST /api/module/unlock: releases the caller's own locks. */
export function unlockModules(keys: ModuleKey[]) {
  return api.post('/module/unlock', keys, { alertOnError: false });
}

/**
 * The same release for a closing tab: a keepalive fetch outlives the page, and unlike sendBeacon it
 * can carry the Authorization header the server needs on every write.
 */
export function unlockOnPageExit(path: '/module/unlock' | '/module/macroFamily/unlock', keys: object[]): void {
  const token = getSession().token;
  if (!token || keys.length === 0) return;
  void fetch(buildUrl('/api', path), {
    method: 'POST',
    keepalive: true,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(keys),
  }).catch(() => undefined);
}
