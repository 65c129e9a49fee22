import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  checkForPublishAnswerSchema,
  clusterCopyAnswerSchema,
  clusterCopyRequestSchema,
  clusterDtoSchema,
  clusterKeyListSchema,
  clusterLockAnswerSchema,
  clusterMonthsAnswerSchema,
  clusterMonthsParamsSchema,
  clusterMonthsQuerySchema,
  clusterSaveAnswerSchema,
  clusterSaveListSchema,
  clusterUnlockAnswerSchema,
  onlyDescriptionQuerySchema,
  publishAnswerSchema,
  unlockQuerySchema,
} from '@bo/shared/clusters';
import { errorResponseSchema } from '@bo/shared/errors';
import { revertOfQuerySchema } from '@bo/shared/item-versions';
import { contextOf } from '../../plugins/context.js';
import * as service from './cluster-lifecycle.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema };

/** The cluster side of the lifecycle engine (docs/LIFECYCLE.md): details, locks, save, publish, copy, months. */
export async function clusterLifecycleRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['clusters'];

  app.post(
    '/api/cluster/clusterDetails',
    {
      schema: {
        tags,
        summary: 'Clusters by key, with their lock state (unknown, deleted and not viewable ones are left out)',
        body: clusterKeyListSchema,
        response: { 200: z.array(clusterDtoSchema), 400: errorResponseSchema },
      },
    },
    (request) => service.clusterDetails(contextOf(app, request), request.body),
  );

  app.post(
    '/api/cluster/lock',
    {
      schema: {
        tags,
        summary: 'Take or renew the locks of clusters (acquired: false = read-only for the caller)',
        body: clusterKeyListSchema,
        response: { 200: clusterLockAnswerSchema, 400: errorResponseSchema },
      },
    },
    (request) => service.lockClusters(contextOf(app, request), request.body),
  );

  app.post(
    '/api/cluster/unlock',
    {
      schema: {
        tags,
        summary: "Release the caller's locks; forced=true also removes another user's lock (admin or edit right)",
        querystring: unlockQuerySchema,
        body: clusterKeyListSchema,
        response: { 200: clusterUnlockAnswerSchema, 400: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    (request) => service.unlockClusters(contextOf(app, request), request.body, request.query.forced),
  );

  app.post(
    '/api/cluster/save',
    {
      schema: {
        tags,
        summary: 'Save clusters, all or nothing (any errorsMap or unauthorizedList entry: nothing saved)',
        querystring: onlyDescriptionQuerySchema.extend(revertOfQuerySchema.shape),
        body: clusterSaveListSchema,
        response: { 200: clusterSaveAnswerSchema, ...errors },
      },
    },
    (request) => service.saveClusterList(contextOf(app, request), request.body, { onlyDescription: request.query.onlyDescription, revertOf: request.query.revertOf }),
  );

  app.post(
    '/api/cluster/checkForPublish',
    {
      schema: {
        tags,
        summary: 'Other clusters of the same month and brand with exactly the same ADDED modules',
        body: clusterSaveListSchema,
        response: { 200: checkForPublishAnswerSchema, ...errors },
      },
    },
    (request) => service.checkClustersForPublish(contextOf(app, request), request.body),
  );

  app.post(
    '/api/cluster/publish',
    {
      schema: {
        tags,
        summary: 'Publish clusters (their unsaved edits are saved first); starts one publish job',
        body: clusterSaveListSchema,
        response: { 200: publishAnswerSchema, ...errors },
      },
    },
    (request) => service.publishClusterList(contextOf(app, request), request.body),
  );

  app.post(
    '/api/cluster/copyCompositions',
    {
      schema: {
        tags,
        summary: 'Copy clusters to other months (a copy-cluster job, awaited up to 60 s)',
        body: clusterCopyRequestSchema,
        response: { 200: clusterCopyAnswerSchema, ...errors },
      },
    },
    (request) => service.copyClusters(contextOf(app, request), request.body),
  );

  app.get(
    '/api/cluster/:clusterId/months',
    {
      schema: {
        tags,
        summary: 'Open months a cluster may be copied to (purpose=copy) or deleted from (purpose=delete)',
        params: clusterMonthsParamsSchema,
        querystring: clusterMonthsQuerySchema,
        response: { 200: clusterMonthsAnswerSchema, ...errors },
      },
    },
    (request) => service.clusterMonths(contextOf(app, request), request.params.clusterId, request.query),
  );
}
