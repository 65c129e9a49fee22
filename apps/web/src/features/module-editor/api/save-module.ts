import { moduleDtoSchema, type ModuleSaveBody } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/**
 * POST /api/module/save?onlyDescription=: the server answers the saved module. 422 is shown by the caller.
 * `revertOf`: the save stores a version restored from the History panel, recorded as a revert of it.
 */
export function saveModule(body: ModuleSaveBody, onlyDescription: boolean, revertOf?: number) {
  return api.post('/module/save', body, { query: { onlyDescription, revertOf }, schema: moduleDtoSchema, alertOnError: false });
}
