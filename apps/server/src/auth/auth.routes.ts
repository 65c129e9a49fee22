import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  grantsResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutResponseSchema,
  sessionResponseSchema,
  userInfoResponseSchema,
} from '@bo/shared/auth';
import { errorResponseSchema } from '@bo/shared/errors';
import { currentUser } from '../plugins/auth.js';
import { login } from './auth.service.js';
import { clearSessionCookie, requestToken, setSessionCookie } from './session-cookie.js';
import { currentSession, logout } from './session.service.js';
import type { TokenService } from './token.js';

export function authRoutes(tokens: TokenService) {
  return async function routes(instance: FastifyInstance) {
    const app = instance.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/authorization/login',
      {
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Log in with user name (or e-mail) and password',
          body: loginRequestSchema,
          response: { 200: loginResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema },
        },
      },
      async (request, reply) => {
        const answer = await login(
          { db: app.database.db, tokens, maxFailures: app.config.LOGIN_MAX_FAILURES },
          { ...request.body, ip: request.ip, requestId: request.id },
        );
        // The same token as an HttpOnly cookie, for <img> pictures, downloads and reloads.
        setSessionCookie(request, reply, answer.access_token, answer.expires_in);
        return answer;
      },
    );

    app.post(
      '/api/authorization/logout',
      {
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Log out: clears the session cookie (any token, valid or not, or none)',
          response: { 204: logoutResponseSchema },
        },
      },
      async (request, reply) => {
        await logout({ db: app.database.db, tokens }, { token: requestToken(request, 'always'), requestId: request.id });
        clearSessionCookie(request, reply);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/authorization/session',
      {
        schema: {
          tags: ['auth'],
          summary: 'The token this request was authenticated with (the session cookie after a reload), and its seconds left',
          response: { 200: sessionResponseSchema, 401: errorResponseSchema },
        },
      },
      async (request) => currentSession({ tokens }, requestToken(request, 'reads')),
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
