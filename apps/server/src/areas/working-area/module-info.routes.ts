import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  filteredDetailsAnswerSchema,
  filteredDetailsPtyAnswerSchema,
  filteredDetailsPtyRequestSchema,
  filteredDetailsRequestSchema,
  modulePercentageAnswerSchema,
  modulePercentageRequestSchema,
  pendingModuleInfoAnswerSchema,
  pendingModuleInfoRequestSchema,
} from '@bo/shared/module-info';
import { contextOf } from '../../plugins/context.js';
import * as moduleInfo from './module-info.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema };
const tags = ['module-info'];

/** Module information calls of part 1 §7 (docs/module-calls.md). */
export async function moduleInfoRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/module/percentage',
    {
      schema: {
        tags,
        summary: 'Refresh percentage of modules (the page composition, or the saved one) against their previous version',
        body: modulePercentageRequestSchema,
        response: { 200: modulePercentageAnswerSchema, ...errors },
      },
    },
    (request) => moduleInfo.modulePercentage(contextOf(app, request), request.body),
  );
  app.post(
    '/api/module/pendingModuleInfo',
    {
      schema: {
        tags,
        summary: 'Whether the caller’s Pending Area lists each module, why, and its planning-system warnings',
        body: pendingModuleInfoRequestSchema,
        response: { 200: pendingModuleInfoAnswerSchema, ...errors },
      },
    },
    (request) => moduleInfo.pendingModuleInfo(contextOf(app, request), request.body.moduleDtoList),
  );
  app.post(
    '/api/module/filteredDetails',
    {
      schema: {
        tags,
        summary: 'Per module, the SKUs that sold in the places and window of the performance filters',
        body: filteredDetailsRequestSchema,
        response: { 200: filteredDetailsAnswerSchema, ...errors },
      },
    },
    (request) => moduleInfo.filteredDetails(contextOf(app, request), request.body.moduleDtoList, request.body.ibicFilters),
  );
  app.post(
    '/api/module/filteredDetailsPty',
    {
      schema: {
        tags,
        summary: 'Per module, the SKUs with a pty in the module month, largest first',
        body: filteredDetailsPtyRequestSchema,
        response: { 200: filteredDetailsPtyAnswerSchema, ...errors },
      },
    },
    (request) => moduleInfo.filteredDetailsPty(contextOf(app, request), request.body.moduleDtoList),
  );
}
