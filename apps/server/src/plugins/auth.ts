import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAdmin } from '@bo/shared/permissions';
import { forbidden, unauthorized } from '../lib/errors.js';
import { authenticate, type AuthUser } from '../modules/auth/auth.service.js';
import type { TokenService } from '../modules/auth/token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every protected route. */
    authUser: AuthUser | null;
  }
}

export const TOKEN_COOKIE = 'bo_token';

/** Routes under /api and /data that answer without a token. */
const PUBLIC_ROUTES = new Set(['POST /api/authorization/login', 'GET /api/health', 'GET /api/openapi.json']);

function isPublic(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  if (PUBLIC_ROUTES.has(`${request.method} ${path}`)) return true;
  return path === '/api/docs' || path.startsWith('/api/docs/');
}

function tokenFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || null;
  // The cookie is accepted for reads only (pictures in <img>, file downloads); writes need the header,
  // which a cross-site page cannot set.
  if (request.method === 'GET' || request.method === 'HEAD') {
    const cookie = request.headers.cookie ?? '';
    for (const part of cookie.split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === TOKEN_COOKIE) return decodeURIComponent(rest.join('=')) || null;
    }
  }
  return null;
}

/** Every /api and /data route except the public ones refuses a missing, bad or expired token with 401. */
export function registerAuth(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('authUser', null);
  app.addHook('onRequest', async (request) => {
    const path = request.url;
    if (!(path.startsWith('/api/') || path === '/api' || path.startsWith('/data/'))) return;
    if (isPublic(request)) return;
    const token = tokenFrom(request);
    if (!token) throw unauthorized('Authentication required');
    const user = await authenticate(app.database.db, tokens, token);
    if (!user) throw unauthorized('The session is not valid any more', 'invalidToken');
    request.authUser = user;
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
