import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAdmin } from '@bo/shared/permissions';
import { forbidden, unauthorized } from '../lib/errors.js';
import { authenticate, type AuthUser } from '../auth/auth.service.js';
import { requestToken } from '../auth/session-cookie.js';
import type { TokenService } from '../auth/token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every protected route. */
    authUser: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Answers without a token (login, health, the API description, the web app's files). Default: false. */
    public?: boolean;
  }
}

/**
 * Every route needs a valid token unless it is declared `config: { public: true }`. The decision is
 * taken from the route the router matched (after it decoded the path), never from the raw URL: a
 * percent-encoded path such as `/%61pi/month/all` reaches the same route and so the same check.
 * Unknown paths are authenticated too, so that without a token nothing tells which routes exist.
 */
export function registerAuth(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('authUser', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public === true) return;
    const token = requestToken(request, 'reads');
    if (!token) throw unauthorized('Authentication required');
    request.authUser = await authenticate(app.database.db, tokens, token);
  });
}

/**
 * Registers routes that all answer without a token — those of a plugin that cannot say so per route
 * (the API page, @fastify/static) — in a scope of their own that marks each `config: { public: true }`.
 */
export async function registerPublicRoutes(app: FastifyInstance, register: (scope: FastifyInstance) => Promise<void>): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await register(scope);
  });
}

/** The authenticated caller (routes behind the auth hook always have one). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}

/** Administration calls: everyone but an admin gets 403. */
export function requireAdmin(request: FastifyRequest): AuthUser {
  const user = currentUser(request);
  if (!isAdmin(user.grants)) throw forbidden('Only administrators may do this');
  return user;
}
