import { existsAnswerSchema, type ClusterExistsRequest } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** POST /cluster/checkIfExists/ */
export const checkClusterExists = (body: ClusterExistsRequest) =>
  api.post('/cluster/checkIfExists/', body, { schema: existsAnswerSchema, alertOnError: false });
