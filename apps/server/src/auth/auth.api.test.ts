import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { buildUser } from '../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../test/test-app.js';
import { auditLog, serverSettings, userGrants } from '../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: {
    email: 'Editor.One@Example.com',
    role: 'EDITOR',
    grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU'] }, edit: { brands: ['AUR'], zones: ['EU'], rules: ['create'] } },
  },
  nogrants: { role: null },
  disabled: { status: 'Disabled', grants: { view: { brands: ['AUR'], zones: ['EU'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
});
afterEach(async () => {
  await app.close();
});

const login = (username: string, password: string, ip = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username, password }, remoteAddress: ip });

describe('POST /api/authorization/login', () => {
  it('answers a bearer token with its lifetime', async () => {
    const res = await login('admin', 'secret');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBe(360 * 60);
    const payload = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString());
    expect(payload.user_name).toBe('admin');
    expect(payload.authorities).toEqual(['ADMIN']);
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('accepts the e-mail instead of the user name, case-insensitively', async () => {
    expect((await login('editor.one@example.COM', 'secret')).statusCode).toBe(200);
    expect((await login('EDITOR', 'secret')).statusCode).toBe(200);
  });

  it('refuses a wrong password with "The credentials are invalid"', async () => {
    const res = await login('admin', 'wrong');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'credentialsInvalid', message: 'The credentials are invalid' });
  });

  it('refuses an unknown user and a disabled user with the same text', async () => {
    for (const name of ['ghost', 'disabled']) {
      const res = await login(name, 'secret');
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('The credentials are invalid');
    }
  });

  it('refuses a user without roles with "User has no grants"', async () => {
    const res = await login('nogrants', 'secret');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'noGrants', message: 'User has no grants' });
  });

  it('refuses a role without any brand or zone with "User has no grants"', async () => {
    await buildUser(app.database.db, { username: 'empty', role: 'EDITOR' });
    expect((await login('empty', 'secret')).json().message).toBe('User has no grants');
  });

  it('rejects a malformed body with 400 and the offending fields', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('badRequest');
    expect(res.json().fields.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['body.username', 'body.password']));
  });

  it('slows down repeated failures per user, even from another address', async () => {
    for (let i = 0; i < 5; i++) expect((await login('editor', 'bad', `10.0.1.${i}`)).statusCode).toBe(401);
    const blocked = await login('editor', 'secret', '10.0.2.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed login attempts\. Try again in \d+ seconds\./);
  });

  it('slows down repeated failures per address, across user names', async () => {
    for (let i = 0; i < 5; i++) await login(`nobody${i}`, 'bad', '10.9.9.9');
    expect((await login('admin', 'secret', '10.9.9.9')).statusCode).toBe(429);
    expect((await login('admin', 'secret', '10.9.9.8')).statusCode).toBe(200);
  });

  it('a success clears the user counter', async () => {
    for (let i = 0; i < 4; i++) await login('editor', 'bad', `10.0.3.${i}`);
    expect((await login('editor', 'secret', '10.0.4.1')).statusCode).toBe(200);
    expect((await login('editor', 'bad', '10.0.4.2')).statusCode).toBe(401);
    expect((await login('editor', 'secret', '10.0.4.3')).statusCode).toBe(200);
  });

  it('records the login in the audit log', async () => {
    await login('admin', 'secret');
    const rows = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'login'));
    expect(rows.map((r) => r.username)).toEqual(['admin']);
  });
});

describe('GET /api/authorization/user and /grant', () => {
  it('answers the user with non-empty grants for the admin', async () => {
    const headers = await as('admin');
    const res = await app.inject({ method: 'GET', url: '/api/authorization/user', headers });
    expect(res.statusCode).toBe(200);
    const { obj } = res.json();
    expect(obj.username).toBe('admin');
    expect(obj.roles).toEqual([
      { role: 'ADMIN', types: ['view', 'edit', 'submit'], rules: ['reopen', 'create', 'delete', 'import'], brands: ['AUR', 'VLT'], starsZones: ['EU', 'NA'] },
    ]);
  });

  it('answers one grant per level for an editor', async () => {
    const headers = await as('editor');
    const res = await app.inject({ method: 'GET', url: '/api/authorization/grant', headers });
    expect(res.json()).toEqual({
      obj: {
        roles: [
          { role: 'EDITOR', types: ['view'], rules: [], brands: ['AUR', 'VLT'], starsZones: ['EU'] },
          { role: 'EDITOR', types: ['edit'], rules: ['create'], brands: ['AUR'], starsZones: ['EU'] },
        ],
      },
    });
  });

  it('reads grants fresh on every call (a change applies on the next call)', async () => {
    const headers = await as('editor');
    await app.database.db.delete(userGrants).where(eq(userGrants.permissionType, 'edit'));
    const res = await app.inject({ method: 'GET', url: '/api/authorization/grant', headers });
    expect(res.json().obj.roles).toHaveLength(1);
  });
});

describe('the token guard', () => {
  const protectedCalls = [
    ['GET', '/api/authorization/user'],
    ['GET', '/api/authorization/grant'],
    ['GET', '/api/brand/all'],
    ['GET', '/api/month/all'],
    ['POST', '/api/month/checkLego'],
    ['GET', '/api/unknown/route'],
    ['GET', '/data/images/123/1.png'],
  ] as const;

  it('refuses every call without a token with 401', async () => {
    for (const [method, url] of protectedCalls) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe('unauthorized');
    }
  });

  it('refuses a bad token with 401', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/brand/all', headers: { authorization: 'Bearer not.a.token' } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an expired token with 401', async () => {
    const [row] = await app.database.db.select().from(serverSettings);
    const expired = await new SignJWT({ user_name: 'admin', authorities: ['ADMIN'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(row!.value));
    const res = await app.inject({ method: 'GET', url: '/api/brand/all', headers: { authorization: `Bearer ${expired}` } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token signed with another secret', async () => {
    const forged = await new SignJWT({ user_name: 'admin', authorities: ['ADMIN'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expect((await app.inject({ method: 'GET', url: '/api/brand/all', headers: { authorization: `Bearer ${forged}` } })).statusCode).toBe(401);
  });

  it('refuses the token of a user disabled after login', async () => {
    const headers = await as('editor');
    await app.database.db.update((await import('../db/schema.js')).users).set({ status: 'Disabled' });
    expect((await app.inject({ method: 'GET', url: '/api/brand/all', headers })).statusCode).toBe(401);
  });

  it('accepts the session cookie for reads but not for writes', async () => {
    const { authorization } = await as('admin');
    const cookie = `other=1; bo_token=${authorization.slice(7)}`;
    expect((await app.inject({ method: 'GET', url: '/api/brand/all', headers: { cookie } })).statusCode).toBe(200);
    const write = await app.inject({
      method: 'POST',
      url: '/api/month/checkLego',
      headers: { cookie },
      payload: { monthId: 'M01_2027', brandCode: 'AUR', collection: 'SUN' },
    });
    expect(write.statusCode).toBe(401);
  });

  it('leaves health, login and the API description public', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200);
  });

  it('echoes a request id on every answer', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const other = await app.inject({ method: 'GET', url: '/api/health' });
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
