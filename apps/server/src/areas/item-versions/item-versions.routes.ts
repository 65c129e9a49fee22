import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  clusterHistoryQuerySchema,
  clusterPublishDiffRequestSchema,
  clusterPublishDiffSchema,
  clusterVersionDetailSchema,
  historyPageSchema,
  moduleHistoryQuerySchema,
  modulePublishDiffRequestSchema,
  modulePublishDiffSchema,
  moduleVersionDetailSchema,
  versionParamsSchema,
} from '@bo/shared/item-versions';
import { clusterKeySchema } from '@bo/shared/clusters';
import { moduleKeySchema } from '@bo/shared/modules';
import { contextOf } from '../../plugins/context.js';
import * as versions from './item-versions.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const tags = ['item-versions'];

/** Item versions (docs/versions.md): history pages, one version, and the diff before a publish. */
export async function itemVersionsRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/module/history',
    { schema: { tags, summary: 'A module’s versions in a month, newest first, paged', querystring: moduleHistoryQuerySchema, response: { 200: historyPageSchema, ...errors } } },
    (request) => versions.history(contextOf(app, request), 'module', request.query.moduleName, request.query.monthId, request.query.page),
  );
  app.get(
    '/api/module/history/version/:n',
    {
      schema: {
        tags,
        summary: 'One version of a module: its content, SKUs no longer existing or discontinued flagged',
        params: versionParamsSchema,
        querystring: moduleKeySchema,
        response: { 200: moduleVersionDetailSchema, ...errors },
      },
    },
    (request) => versions.moduleVersion(contextOf(app, request), request.query.moduleName, request.query.monthId, request.params.n),
  );
  app.get(
    '/api/cluster/history',
    { schema: { tags, summary: 'A cluster’s versions in a month, newest first, paged', querystring: clusterHistoryQuerySchema, response: { 200: historyPageSchema, ...errors } } },
    (request) => versions.history(contextOf(app, request), 'cluster', request.query.clusterId, request.query.monthId, request.query.page),
  );
  app.get(
    '/api/cluster/history/version/:n',
    {
      schema: {
        tags,
        summary: 'One version of a cluster: its content, stores and modules no longer in the month flagged',
        params: versionParamsSchema,
        querystring: clusterKeySchema,
        response: { 200: clusterVersionDetailSchema, ...errors },
      },
    },
    (request) => versions.clusterVersion(contextOf(app, request), request.query.clusterId, request.query.monthId, request.params.n),
  );
  app.post(
    '/api/module/publishDiff',
    {
      schema: {
        tags,
        summary: 'What a publish changes: each module (unsaved lines when sent) against its last published version and the previous month’s',
        body: modulePublishDiffRequestSchema,
        response: { 200: z.array(modulePublishDiffSchema), ...errors },
      },
    },
    (request) => versions.modulePublishDiff(contextOf(app, request), request.body),
  );
  app.post(
    '/api/cluster/publishDiff',
    {
      schema: {
        tags,
        summary: 'What a publish changes: each cluster against its last published version and the previous month’s (stores, modules, SKUs per store)',
        body: clusterPublishDiffRequestSchema,
        response: { 200: z.array(clusterPublishDiffSchema), ...errors },
      },
    },
    (request) => versions.clusterPublishDiff(contextOf(app, request), request.body),
  );
}
