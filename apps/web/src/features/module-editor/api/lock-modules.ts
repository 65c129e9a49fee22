import { z } from 'zod';
import type { ModuleKey } from '@bo/shared/modules';
import { moduleLockResultSchema } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

export type ModuleLockResult = z.infer<typeof moduleLockResultSchema>;

/** POST /api/module/lock: takes (or renews) the locks; `acquired: false` means read-only. (Release: components/editor/use-lock-keeper.) */
export function lockModules(keys: ModuleKey[]) {
  return api.post('/module/lock', keys, { schema: z.array(moduleLockResultSchema), alertOnError: false });
}
