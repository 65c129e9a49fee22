import { deleteResponseSchema } from '@bo/shared/deletion';
import { api } from '@/lib/api-client';

/** DELETE /module: each module from its start month on (DELETION_PENDING, restorable). */
export const deleteModules = (items: { moduleName: string; monthId: string }[]) =>
  api.delete('/module', items, { schema: deleteResponseSchema, alertOnError: false });
