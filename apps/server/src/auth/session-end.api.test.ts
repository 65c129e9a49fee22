import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUR_EU } from '../../test/builders.js';
import { buildTestApp, loginAs, type AuthHeader, type TestApp } from '../../test/test-app.js';
import { auditLog, revokedTokens, serverSettings } from '../db/schema.js';
import { removeExpiredRevocations } from './session-cleanup.js';

/**
 * Sessions that really end (docs/DECISIONS.md, "Sessions that really end"): a logged-out token answers 401 on
 * its next call, and so does the token of a user an admin disabled or left without grants.
 */
const USERS = {
  admin: { role: 'ADMIN' },
  editor: { role: 'EDITOR', grants: { view: AUR_EU, edit: AUR_EU } },
} as const;
type User = keyof typeof USERS;

let t: TestApp<User>;
let app: FastifyInstance;

beforeEach(async () => {
  t = await buildTestApp({ reference: true, users: USERS });
  app = t.app;
});
afterEach(async () => {
  await app.close();
});

const tokenOf = (header: AuthHeader) => header.authorization.slice('Bearer '.length);
const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });
const logout = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/api/authorization/logout', headers });
const logoutEntries = async () => (await t.db.select().from(auditLog).where(eq(auditLog.action, 'logout'))).length;

async function signed(username: string, expSecondsFromNow: number): Promise<string> {
  const [row] = await t.db.select().from(serverSettings).where(eq(serverSettings.key, 'jwt_secret'));
  return new SignJWT({ user_name: username, authorities: [] })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + expSecondsFromNow)
    .sign(new TextEncoder().encode(row!.value));
}

describe('logout revokes its token', () => {
  it('the token answers 401 on its next call, by header or cookie, GET /api/authorization/session included', async () => {
    const editor = await loginAs(app, 'editor');
    const cookie = { cookie: `bo_token=${tokenOf(editor)}` };
    expect((await get('/api/month/all', editor)).statusCode).toBe(200);
    expect((await get('/api/authorization/session', cookie)).statusCode).toBe(200);

    expect((await logout(editor)).statusCode).toBe(204);

    for (const [url, headers] of [
      ['/api/month/all', editor],
      ['/api/authorization/user', editor],
      ['/api/authorization/session', editor],
      ['/api/authorization/session', cookie],
      ['/data/images/123/1.png', cookie],
    ] as const) {
      const res = await get(url, headers);
      expect(res.statusCode, `${url} ${Object.keys(headers)[0]}`).toBe(401);
      expect(res.json(), url).toEqual({ error: 'invalidToken', message: 'The session is not valid any more' });
    }
    const write = await app.inject({ method: 'POST', url: '/api/month/checkLego', headers: editor, payload: { monthId: 'M01_2027', brandCode: 'AUR', collection: 'SUN' } });
    expect(write.statusCode).toBe(401);
  });

  it('ends that session only: another login of the same user keeps working', async () => {
    const first = await loginAs(app, 'editor');
    const second = await loginAs(app, 'editor');
    expect(tokenOf(first)).not.toBe(tokenOf(second));
    await logout(first);
    expect((await get('/api/month/all', first)).statusCode).toBe(401);
    expect((await get('/api/month/all', second)).statusCode).toBe(200);
    expect((await get('/api/authorization/session', second)).json().access_token).toBe(tokenOf(second));
    // Another user's session is not touched either.
    expect((await get('/api/month/all', await t.as('admin'))).statusCode).toBe(200);
  });

  it('stays public and idempotent: a revoked, expired, forged or missing token still answers 204; a repeat does nothing more', async () => {
    const editor = await loginAs(app, 'editor');
    expect((await logout(editor)).statusCode).toBe(204);
    expect(await logoutEntries()).toBe(1);
    // The revoked token again (header, then cookie): 204, the cookie cleared, no second audit entry or lock release.
    for (const headers of [editor, { cookie: `bo_token=${tokenOf(editor)}` }]) {
      const res = await logout(headers);
      expect(res.statusCode).toBe(204);
      expect(String(res.headers['set-cookie'])).toContain('Max-Age=0');
    }
    expect(await logoutEntries()).toBe(1);
    const others: Record<string, string>[] = [{ authorization: `Bearer ${await signed('editor', -10)}` }, { authorization: 'Bearer not.a.token' }, {}];
    for (const headers of others) {
      expect((await logout(headers)).statusCode).toBe(204);
    }
  });

  it('a token that expired moments ago is revoked too (its logout still releases the locks)', async () => {
    const justExpired = await signed('editor', -5);
    expect((await logout({ authorization: `Bearer ${justExpired}` })).statusCode).toBe(204);
    expect(await logoutEntries()).toBe(1);
    expect((await logout({ authorization: `Bearer ${justExpired}` })).statusCode).toBe(204);
    expect(await logoutEntries()).toBe(1);
  });
});

describe('an admin ends a user’s sessions', () => {
  const save = async (body: object) => {
    const res = await app.inject({ method: 'POST', url: '/api/user/save', headers: await t.as('admin'), payload: body });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('disabling the user: their next call answers 401', async () => {
    const editor = await t.as('editor');
    expect((await get('/api/month/all', editor)).statusCode).toBe(200);
    const res = await app.inject({ method: 'POST', url: `/api/user/${t.users.editor.userId}/disable`, headers: await t.as('admin') });
    expect(res.statusCode).toBe(200);
    expect((await get('/api/month/all', editor)).statusCode).toBe(401);
    expect((await get('/api/authorization/session', editor)).statusCode).toBe(401);
  });

  it('removing all their grants: their next call answers 401 "User has no grants", as their login would', async () => {
    const editor = await t.as('editor');
    expect((await get('/api/month/all', editor)).statusCode).toBe(200);
    await save({ userId: t.users.editor.userId, role: 'EDITOR', grants: [] });
    for (const url of ['/api/month/all', '/api/authorization/grant', '/api/authorization/session']) {
      const res = await get(url, editor);
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ error: 'noGrants', message: 'User has no grants' });
    }
    const login = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'editor', password: 'secret' } });
    expect(login.json().error).toBe('noGrants');
  });

  it('removing their role: their next call answers 401', async () => {
    const editor = await t.as('editor');
    await save({ userId: t.users.editor.userId, role: null, grants: [] });
    const res = await get('/api/month/all', editor);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('noGrants');
  });

  it('a grant given back lets the same token in again (nothing was revoked, the grants are read at each call)', async () => {
    const editor = await t.as('editor');
    await save({ userId: t.users.editor.userId, role: 'EDITOR', grants: [] });
    expect((await get('/api/month/all', editor)).statusCode).toBe(401);
    const g = (grantType: string, grantCode: string) => ({ grantType, grantCode, permissionType: 'view' });
    await save({ userId: t.users.editor.userId, role: 'EDITOR', grants: [g('brand', 'AUR'), g('starszone', 'EU')] });
    expect((await get('/api/month/all', editor)).statusCode).toBe(200);
  });
});

describe('the cost of a session check', () => {
  /** The statements the app sends to its database while `fn` runs (the driver's query calls). */
  async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
    const client = (t.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const seen: string[] = [];
    const original = client.query;
    client.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as string | { text: string };
      seen.push(typeof q === 'string' ? q : q.text);
      return original.apply(this, args);
    };
    try {
      await fn();
    } finally {
      client.query = original;
    }
    return seen;
  }

  it('stays one statement per authenticated call, the revocation check included', async () => {
    const editor = await t.as('editor');
    await get('/api/nothing-here', editor); // prepared once
    const sent = await statementsOf(async () => expect((await get('/api/nothing-here', editor)).statusCode).toBe(404));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('revoked_tokens');
  });
});

describe('revocations are removed once their token has expired', () => {
  it('by the periodic cleanup, which keeps those of tokens still valid', async () => {
    const count = async () => (await t.db.select().from(revokedTokens)).length;
    const editor = await loginAs(app, 'editor');
    await logout(editor);
    await logout({ authorization: `Bearer ${await signed('editor', -5)}` });
    expect(await count()).toBe(2);
    expect(await removeExpiredRevocations(t.db, new Date(Date.now() + 60 * 60_000))).toBe(1);
    expect(await count()).toBe(1);
    // Past the logged-out token's expiry (6 hours) and the margin, it goes too.
    expect(await removeExpiredRevocations(t.db, new Date(Date.now() + 7 * 60 * 60_000))).toBe(1);
    expect(await count()).toBe(0);
  });
});
