import { deleteResponseSchema } from '@bo/shared/deletion';
import { api } from '@/lib/api-client';

/** DELETE /cluster: each cluster from its start month on (DELETION_PENDING, restorable). */
export const deleteClusters = (items: { clusterId: string; monthId: string }[]) =>
  api.delete('/cluster', items, { schema: deleteResponseSchema, alertOnError: false });
