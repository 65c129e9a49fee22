import { moduleDtoSchema } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** POST /api/module/save?onlyDescription=: the server answers the saved module. 422 is shown by the caller. */
export function saveModule(body: object, onlyDescription: boolean) {
  return api.post('/module/save', body, { query: { onlyDescription }, schema: moduleDtoSchema, alertOnError: false });
}
