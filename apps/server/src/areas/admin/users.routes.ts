import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  createUserRequestSchema,
  createUserResponseSchema,
  userIdParamsSchema,
  userSaveResponseSchema,
  userSaveSchema,
  userSchema,
  userStatusResponseSchema,
} from '@bo/shared/users';
import { contextOf } from '../../plugins/context.js';
import { requireAdmin } from '../../plugins/auth.js';
import * as users from './users.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema, 422: errorResponseSchema };

/** Manage Users (spec part 1 §7 "Users"): admin only. */
export async function userRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // Every call of this plugin: 403 for anyone but an admin, before the body is even looked at.
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });
  const tags = ['users'];
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);
  const list = { schema: { tags, summary: 'All users with their grants, by e-mail', response: { 200: z.array(userSchema), 403: errorResponseSchema } } };

  app.get('/api/user/', list, (request) => users.listUsers(ctx(request)));
  app.get('/api/user', { schema: { ...list.schema, hide: true } }, (request) => users.listUsers(ctx(request)));
  app.get(
    '/api/user/allCreators',
    { schema: { tags, summary: 'Users a brand can be given to: enabled, with a role, not administrators', response: { 200: z.array(userSchema), 403: errorResponseSchema } } },
    (request) => users.listCreators(ctx(request)),
  );
  app.get(
    '/api/user/allNoGrants',
    { schema: { tags, summary: 'Users without grants (no role, or no brand and stars zone)', response: { 200: z.array(userSchema), 403: errorResponseSchema } } },
    (request) => users.listUsersWithoutGrants(ctx(request)),
  );
  app.post(
    '/api/user/insertCreator',
    { schema: { tags, summary: "Create a user from the provider's list (status New)", body: createUserRequestSchema, response: { 200: createUserResponseSchema, ...errors } } },
    (request) => users.createUser(ctx(request), request.body),
  );
  app.post(
    '/api/user/save',
    { schema: { tags, summary: "Save a user's role and grants; answers the grants as stored", body: userSaveSchema, response: { 200: userSaveResponseSchema, ...errors } } },
    (request) => users.saveUser(ctx(request), request.body),
  );
  app.post(
    '/api/user/:userId/enable',
    { schema: { tags, summary: 'Enable a user', params: userIdParamsSchema, response: { 200: userStatusResponseSchema, ...errors } } },
    (request) => users.setUserStatus(ctx(request), request.params.userId, 'Enabled'),
  );
  app.post(
    '/api/user/:userId/disable',
    { schema: { tags, summary: 'Disable a user (their next call answers 401)', params: userIdParamsSchema, response: { 200: userStatusResponseSchema, ...errors } } },
    (request) => users.setUserStatus(ctx(request), request.params.userId, 'Disabled'),
  );
}
