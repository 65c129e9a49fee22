import { moduleDtoSchema } from '@bo/shared/modules';
import type { ModuleCreate } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** POST /module/create: saves the new module (WIP, no SKUs). */
export const createModule = (body: ModuleCreate) => api.post('/module/create', body, { schema: moduleDtoSchema, alertOnError: false });
