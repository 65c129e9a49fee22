import { z } from 'zod';
import { clusterDtoSchema } from '@bo/shared/clusters';
import type { ClusterCreate } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** POST /cluster/massiveCreation/ with the one cluster of the home form. */
export const createCluster = (body: ClusterCreate) =>
  api.post('/cluster/massiveCreation/', [body], { schema: z.array(clusterDtoSchema), alertOnError: false });
