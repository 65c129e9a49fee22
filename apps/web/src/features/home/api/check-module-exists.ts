import { existsAnswerSchema, type ModuleExistsRequest } from '@bo/shared/creation';
import { api } from '@/lib/api-client';

/** POST /module/checkIfExists/: `{ description }` when free; a 409 ApiError names the reasons (';'-separated). */
export const checkModuleExists = (body: ModuleExistsRequest) =>
  api.post('/module/checkIfExists/', body, { schema: existsAnswerSchema, alertOnError: false });
