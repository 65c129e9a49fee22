import { z } from 'zod';
import { familyLockResultSchema } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

export interface FamilyKey {
  macroFamily: string;
  monthId: string;
}

/** POST /api/module/macroFamily/lock */
export function lockFamilies(keys: FamilyKey[]) {
  return api.post('/module/macroFamily/lock', keys, { schema: z.array(familyLockResultSchema), alertOnError: false });
}
