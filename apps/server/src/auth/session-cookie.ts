import type { FastifyReply, FastifyRequest } from 'fastify';

const TOKEN_COOKIE = 'bo_token';

/**
 * The session cookie the server sets at login: HttpOnly (page scripts never read it; the web app keeps
 * the token in memory and gets it back after a reload from GET /api/authorization/session), SameSite
 * Strict (never sent by another site's page), Path=/ (pictures and downloads under /data too), Secure
 * when the request came over https. The cookie is still accepted for GET/HEAD only (plugins/auth.ts).
 */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure ? '; Secure' : ''}`;
}

/** The same cookie, emptied and expired at once (logout). */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}

/** https as the client saw it (X-Forwarded-Proto counts only from a proxy TRUST_PROXY trusts). */
const isSecureRequest = (request: FastifyRequest): boolean => request.protocol === 'https';

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', sessionCookie(token, maxAgeSeconds, isSecureRequest(request)));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', clearedSessionCookie(isSecureRequest(request)));
}

/** A cookie's value from a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('=')) || null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The token a request carries: the Authorization header, else the cookie. The auth hook takes the
 * cookie on GET/HEAD only (`cookie: 'reads'`: pictures in <img>, downloads, the session after a
 * reload), so a write needs the header, which another site's page cannot set; logout reads the cookie
 * on its POST too (`cookie: 'always'`), since ending a session is no risk.
 */
export function requestToken(request: FastifyRequest, cookie: 'reads' | 'always'): string | null {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || null;
  if (cookie === 'reads' && request.method !== 'GET' && request.method !== 'HEAD') return null;
  return readCookie(request.headers.cookie, TOKEN_COOKIE);
}
