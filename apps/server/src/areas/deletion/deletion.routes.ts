import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DELETION_TEXTS,
  clusterDeleteFromMonthRequestSchema,
  clusterDeleteRequestSchema,
  clusterDeletedSearchSchema,
  clusterDeletionPageSchema,
  clusterRestoreRequestSchema,
  deleteResponseSchema,
  deletedSearchQuerySchema,
  moduleDeleteFromMonthRequestSchema,
  moduleDeleteRequestSchema,
  moduleDeletedSearchSchema,
  moduleDeletionPageSchema,
  moduleRestoreRequestSchema,
  restoreQuerySchema,
  restoreRequestSchema,
  restoreResponseSchema,
  type DeletionItemType,
} from '@bo/shared/deletion';
import { contextOf } from '../../plugins/context.js';
import { badRequest } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';
import { deleteItems, invalidDeletionData, restoreItems, searchDeletedClusters, searchDeletedModules } from './deletion.service.js';

interface DeletionRouteOptions {
  /** The clock of the Deletion Area's month window (tests fix it). */
  now?: () => Date;
}

/** The offending fields of a body that failed its schema (routes that answer the spec's own text for it). */
function invalidFields(request: FastifyRequest) {
  const err = request.validationError;
  if (!err || !hasZodFastifySchemaValidationErrors(err)) return undefined;
  return (err.validation as { instancePath?: string; message?: string }[]).map((v) => ({
    path: ['body', ...String(v.instancePath ?? '').split('/').filter(Boolean)].join('.'),
    message: v.message ?? 'Invalid value',
  }));
}

/**
 * Delete (from a start month), the Deletion Area search and restore, for modules and clusters.
 * The delete and restore calls answer the spec's texts for an empty or malformed body, so their body
 * validation errors are handled here rather than by the generic 400.
 */
export async function deletionRoutes(instance: FastifyInstance, opts: DeletionRouteOptions = {}) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const now = opts.now ?? (() => new Date());
  const tags = ['deletion'];

  const deleteRoute = <T extends Record<string, string>>(
    method: 'DELETE' | 'POST',
    url: string,
    type: DeletionItemType,
    body: z.ZodType<T[]>,
    toEntry: (item: T) => { key: string; monthIdFrom: string },
    summary: string,
  ) =>
    app.route({
      method,
      url,
      attachValidation: true,
      schema: { tags, summary, body, response: { 200: deleteResponseSchema } },
      handler: async (request) => {
        if (request.validationError) throw invalidDeletionData(type, invalidFields(request));
        return deleteItems(contextOf(app, request), type, (request.body as unknown as T[]).map(toEntry));
      },
    });

  deleteRoute<{ moduleName: string; monthId: string }>(
    'DELETE',
    '/api/module',
    'module',
    moduleDeleteRequestSchema,
    (m) => ({ key: m.moduleName, monthIdFrom: m.monthId }),
    'Delete modules from a start month on (DELETION_PENDING, restorable)',
  );
  deleteRoute<{ moduleName: string; monthIdFrom: string }>(
    'POST',
    '/api/module/deleteFromMonth',
    'module',
    moduleDeleteFromMonthRequestSchema,
    (m) => ({ key: m.moduleName, monthIdFrom: m.monthIdFrom }),
    'Delete modules from a start month on (same as DELETE /api/module)',
  );
  deleteRoute<{ clusterId: string; monthId: string }>(
    'DELETE',
    '/api/cluster',
    'cluster',
    clusterDeleteRequestSchema,
    (c) => ({ key: c.clusterId, monthIdFrom: c.monthId }),
    'Delete clusters from a start month on (DELETION_PENDING, restorable)',
  );
  deleteRoute<{ clusterId: string; monthIdFrom: string }>(
    'POST',
    '/api/cluster/deleteFromMonth',
    'cluster',
    clusterDeleteFromMonthRequestSchema,
    (c) => ({ key: c.clusterId, monthIdFrom: c.monthIdFrom }),
    'Delete clusters from a start month on (same as DELETE /api/cluster)',
  );

  app.post(
    '/api/module/deleted',
    {
      schema: {
        tags,
        summary: 'Deletion Area: modules with a deletion request, paged',
        querystring: deletedSearchQuerySchema,
        body: moduleDeletedSearchSchema,
        response: { 200: moduleDeletionPageSchema },
      },
    },
    (request) =>
      searchDeletedModules(
        app.database.db,
        currentUser(request).grants,
        { status: request.body.status, text: request.body.moduleName, brand: request.body.brand },
        request.query,
        now(),
      ),
  );
  app.post(
    '/api/cluster/deleted',
    {
      schema: {
        tags,
        summary: 'Deletion Area: clusters with a deletion request, paged',
        querystring: deletedSearchQuerySchema,
        body: clusterDeletedSearchSchema,
        response: { 200: clusterDeletionPageSchema },
      },
    },
    (request) =>
      searchDeletedClusters(
        app.database.db,
        currentUser(request).grants,
        { status: request.body.status, text: request.body.clusterId, brand: request.body.brand },
        request.query,
        now(),
      ),
  );

  const noItemIds = () => badRequest(DELETION_TEXTS.noItemIds, undefined, 'noItemIds');

  app.post(
    '/api/module/restore',
    {
      attachValidation: true,
      schema: { tags, summary: 'Restore DELETION_PENDING modules', body: moduleRestoreRequestSchema, response: { 200: restoreResponseSchema } },
    },
    (request) => {
      if (request.validationError) throw noItemIds();
      return restoreItems(contextOf(app, request), 'module', request.body.map((m) => m.moduleName));
    },
  );
  app.post(
    '/api/cluster/restore',
    {
      attachValidation: true,
      schema: { tags, summary: 'Restore DELETION_PENDING clusters', body: clusterRestoreRequestSchema, response: { 200: restoreResponseSchema } },
    },
    (request) => {
      if (request.validationError) throw noItemIds();
      return restoreItems(contextOf(app, request), 'cluster', request.body.map((c) => c.clusterId));
    },
  );
  app.post(
    '/api/deletion/restore',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Restore DELETION_PENDING modules or clusters (viewType=module|cluster)',
        querystring: restoreQuerySchema,
        body: restoreRequestSchema,
        response: { 200: restoreResponseSchema },
      },
    },
    (request) => {
      const viewType = (request.query as { viewType?: unknown } | undefined)?.viewType;
      if (viewType !== 'module' && viewType !== 'cluster') throw badRequest(DELETION_TEXTS.invalidViewType, undefined, 'invalidViewType');
      if (request.validationError) throw noItemIds();
      const keys = request.body.map((item) => (viewType === 'module' ? item.moduleName : item.clusterId)).filter((k): k is string => !!k);
      return restoreItems(contextOf(app, request), viewType, keys);
    },
  );
}
