import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import { changeReleaseStatusSchema, releaseIdBodySchema, releaseSchema } from '@bo/shared/releases';
import { contextOf } from '../../plugins/context.js';
import { requireAdmin } from '../../plugins/auth.js';
import * as releases from './releases.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };

/** Manage Releases (spec part 1 §7 "Releases"): admin only, the list included (the token is always required). */
export async function releaseRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });
  const tags = ['releases'];
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);

  app.get(
    '/api/release/all',
    { schema: { tags, summary: 'Releases sorted by releaseId, each with its months', response: { 200: z.array(releaseSchema), 403: errorResponseSchema } } },
    (request) => releases.listReleases(ctx(request)),
  );
  app.post(
    '/api/release/createNew',
    { schema: { tags, summary: 'Create a release (only while none is open); it opens the next 12 months', body: releaseIdBodySchema, response: { 200: releaseSchema, ...errors } } },
    (request) => releases.createRelease(ctx(request), request.body.releaseId),
  );
  app.post(
    '/api/release/changeStatus',
    { schema: { tags, summary: 'Close or re-open a release, with its months', body: changeReleaseStatusSchema, response: { 200: releaseSchema, ...errors } } },
    (request) => releases.changeReleaseStatus(ctx(request), request.body),
  );
  app.post(
    '/api/release/publish',
    { schema: { tags, summary: 'Publish a release to the front office', body: releaseIdBodySchema, response: { 200: releaseSchema, ...errors } } },
    (request) => releases.publishRelease(ctx(request), request.body.releaseId, 'frontOffice'),
  );
  app.post(
    '/api/release/publishViewer',
    { schema: { tags, summary: 'Publish a release to viewers', body: releaseIdBodySchema, response: { 200: releaseSchema, ...errors } } },
    (request) => releases.publishRelease(ctx(request), request.body.releaseId, 'viewer'),
  );
}
