import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { grantsResponseSchema, loginRequestSchema, loginResponseSchema, userInfoResponseSchema } from '@bo/shared/auth';
import { errorResponseSchema } from '@bo/shared/errors';
import { currentUser } from '../../plugins/auth.js';
import { login } from './auth.service.js';
import type { TokenService } from './token.js';

export function authRoutes(tokens: TokenService) {
  return async function routes(instance: FastifyInstance) {
    const app = instance.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/authorization/login',
      {
        schema: {
          tags: ['auth'],
          summary: 'Log in with user name (or e-mail) and password',
          body: loginRequestSchema,
          response: { 200: loginResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema },
        },
      },
      async (request) =>
        login(
          { db: app.database.db, tokens, maxFailures: app.config.LOGIN_MAX_FAILURES },
          { ...request.body, ip: request.ip, requestId: request.id },
        ),
    );

    app.get(
      '/api/authorization/user',
      { schema: { tags: ['auth'], summary: 'The logged-in user and grants', response: { 200: userInfoResponseSchema } } },
      async (request) => {
        const u = currentUser(request);
        return { obj: { username: u.username, email: u.email, firstName: u.firstName, lastName: u.lastName, roles: u.grants } };
      },
    );

    app.get(
      '/api/authorization/grant',
      { schema: { tags: ['auth'], summary: "The logged-in user's grants", response: { 200: grantsResponseSchema } } },
      async (request) => ({ obj: { roles: currentUser(request).grants } }),
    );
  };
}
