import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/test-app.js';
import { auditLog, serverSettings } from '../db/schema.js';
import { clearedSessionCookie, readCookie, sessionCookie } from './session-cookie.js';

let app: FastifyInstance;

beforeEach(async () => {
  // TRUST_PROXY: the https tests say so through X-Forwarded-Proto, as a proxy in front would.
  ({ app } = await buildTestApp({ config: { TRUST_PROXY: true }, reference: true, users: { admin: { role: 'ADMIN' } } }));
});
afterEach(async () => {
  await app.close();
});

const login = (headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'admin', password: 'secret' }, headers });

/** The attributes of a Set-Cookie header, lower-cased names: { bo_token: value, path: '/', httponly: '', … }. */
function cookieAttributes(header: string | string[] | number | undefined): Record<string, string> {
  const value = Array.isArray(header) ? header.join('\n') : String(header ?? '');
  return Object.fromEntries(
    value.split(';').map((part) => {
      const [name, ...rest] = part.trim().split('=');
      return [name!.toLowerCase(), rest.join('=')];
    }),
  );
}

async function signedToken(expSecondsFromNow: number): Promise<string> {
  const [row] = await app.database.db.select().from(serverSettings).where(eq(serverSettings.key, 'jwt_secret'));
  return new SignJWT({ user_name: 'admin', authorities: ['ADMIN'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + expSecondsFromNow)
    .sign(new TextEncoder().encode(row!.value));
}

describe('session cookie string', () => {
  it('is HttpOnly, SameSite=Strict, on the whole site, for the token lifetime; Secure only when asked', () => {
    expect(sessionCookie('a.b.c', 21600, false)).toBe('bo_token=a.b.c; Path=/; HttpOnly; SameSite=Strict; Max-Age=21600');
    expect(sessionCookie('a.b.c', 21600, true)).toBe('bo_token=a.b.c; Path=/; HttpOnly; SameSite=Strict; Max-Age=21600; Secure');
    expect(clearedSessionCookie(false)).toBe('bo_token=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    expect(clearedSessionCookie(true)).toBe('bo_token=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
  });

  it('reads a cookie among others and ignores broken encodings', () => {
    expect(readCookie('a=1; bo_token=x%2Ey; b=2', 'bo_token')).toBe('x.y');
    expect(readCookie('a=1', 'bo_token')).toBeNull();
    expect(readCookie('bo_token=%E0%A4%A', 'bo_token')).toBeNull();
    expect(readCookie(undefined, 'bo_token')).toBeNull();
  });
});

describe('POST /api/authorization/login', () => {
  it('keeps its JSON answer and also sets the HttpOnly session cookie', async () => {
    const res = await login();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.token_type).toBe('bearer');
    const cookie = cookieAttributes(res.headers['set-cookie']);
    expect(cookie.bo_token).toBe(body.access_token);
    expect(cookie.path).toBe('/');
    expect('httponly' in cookie).toBe(true);
    expect(cookie.samesite).toBe('Strict');
    expect(cookie['max-age']).toBe(String(body.expires_in));
    expect('secure' in cookie).toBe(false);
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const res = await login({ 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(200);
    expect('secure' in cookieAttributes(res.headers['set-cookie'])).toBe(true);
  });

  it('sets no cookie when the login fails', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'admin', password: 'wrong' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('GET /api/authorization/session', () => {
  it('gives back the token of the session cookie, with the seconds it has left', async () => {
    const { access_token: token, expires_in: lifetime } = (await login()).json();
    const res = await app.inject({ method: 'GET', url: '/api/authorization/session', headers: { cookie: `other=1; bo_token=${token}` } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ access_token: token, token_type: 'bearer', expires_in: expect.any(Number) });
    expect(body.expires_in).toBeGreaterThan(lifetime - 5);
    expect(body.expires_in).toBeLessThanOrEqual(lifetime);
  });

  it('answers for the bearer header too, and counts the seconds left of that token', async () => {
    const token = await signedToken(600);
    const res = await app.inject({ method: 'GET', url: '/api/authorization/session', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().access_token).toBe(token);
    expect(res.json().expires_in).toBeGreaterThan(590);
    expect(res.json().expires_in).toBeLessThanOrEqual(600);
  });

  it('prefers the header over the cookie, as the auth hook does', async () => {
    const header = await signedToken(600);
    const { access_token: cookie } = (await login()).json();
    const res = await app.inject({
      method: 'GET',
      url: '/api/authorization/session',
      headers: { authorization: `Bearer ${header}`, cookie: `bo_token=${cookie}` },
    });
    expect(res.json().access_token).toBe(header);
  });

  it('answers 401 without a token, or with an expired or forged one', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/authorization/session' })).statusCode).toBe(401);
    const expired = await signedToken(-10);
    expect((await app.inject({ method: 'GET', url: '/api/authorization/session', headers: { cookie: `bo_token=${expired}` } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/authorization/session', headers: { cookie: 'bo_token=not.a.token' } })).statusCode).toBe(401);
  });

  it('is described in the API description', async () => {
    const paths = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths;
    expect(paths['/api/authorization/session'].get.responses['200']).toBeDefined();
    expect(paths['/api/authorization/logout'].post.responses['204']).toBeDefined();
    expect(paths['/api/authorization/logout'].post.security).toEqual([]);
  });
});

describe('POST /api/authorization/logout', () => {
  it('clears the cookie with the same attributes and answers 204', async () => {
    const { access_token: token } = (await login()).json();
    const res = await app.inject({ method: 'POST', url: '/api/authorization/logout', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const cookie = cookieAttributes(res.headers['set-cookie']);
    expect(cookie.bo_token).toBe('');
    expect(cookie['max-age']).toBe('0');
    expect(cookie.path).toBe('/');
    expect('httponly' in cookie).toBe(true);
    expect(cookie.samesite).toBe('Strict');
    expect('secure' in cookie).toBe(false);
    const audited = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'logout'));
    expect(audited.map((row) => row.username)).toEqual(['admin']);
  });

  it('works with the cookie alone, an expired or invalid token, or none', async () => {
    const { access_token: token } = (await login()).json();
    const expired = await signedToken(-10);
    for (const headers of [
      { cookie: `bo_token=${token}` },
      { authorization: `Bearer ${expired}` },
      { cookie: `bo_token=${expired}` },
      { authorization: 'Bearer garbage' },
      {},
    ] as Record<string, string>[]) {
      const res = await app.inject({ method: 'POST', url: '/api/authorization/logout', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(204);
      expect(cookieAttributes(res.headers['set-cookie'])['max-age']).toBe('0');
    }
  });

  it('clears a Secure cookie over https', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/authorization/logout', headers: { 'x-forwarded-proto': 'https' } });
    expect('secure' in cookieAttributes(res.headers['set-cookie'])).toBe(true);
  });
});
