import { macroFamilySchema } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** POST /module/macroFamily/create */
export const createMacroFamily = (macroFamily: string) =>
  api.post('/module/macroFamily/create', { macroFamily }, { schema: macroFamilySchema, alertOnError: false });
