/**
 * The app of the admin pages' API tests (brands, users, releases): the reference world, the test's users,
 * the admin logged in, and `call`, which sends a request as the admin unless given other headers.
 */
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildTestApp, type AuthHeader, type TestApp, type TestUser } from './test-app.js';

export interface AdminApp<User extends string> {
  app: FastifyInstance;
  as: TestApp<User>['as'];
  /** The admin's bearer header. */
  admin: AuthHeader;
  /** Each created user's id, by user name. */
  ids: Record<string, number>;
  call(method: 'GET' | 'POST', url: string, payload?: unknown, headers?: AuthHeader): Promise<LightMyRequestResponse>;
  /** Checks that each of `users` gets 403 forbidden from every one of `calls`. */
  forbiddenToAll(users: readonly User[], calls: readonly AdminCall[]): Promise<void>;
}

/** One admin call of a rights test: method, URL and body. */
export type AdminCall = [method: 'GET' | 'POST', url: string, payload?: unknown];

/** A fresh admin-page app with `users` (one of them named `admin`); close `app` after the test. */
export async function buildAdminApp<User extends string>(users: Readonly<Record<User | 'admin', TestUser>>): Promise<AdminApp<User | 'admin'>> {
  const test = await buildTestApp({ reference: true, users });
  const { app, as } = test;
  const ids = Object.fromEntries(Object.values<{ username: string; userId: number }>(test.users).map((u) => [u.username, u.userId]));
  const admin = await as('admin');
  const call: AdminApp<User | 'admin'>['call'] = (method, url, payload, headers = admin) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const forbiddenToAll: AdminApp<User | 'admin'>['forbiddenToAll'] = async (names, calls) => {
    for (const name of names) {
      const headers = await as(name);
      for (const [method, url, payload] of calls) {
        const res = await call(method, url, payload, headers);
        expect(res.statusCode, `${name} ${method} ${url}`).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
    }
  };
  return { app, as, admin, ids, call, forbiddenToAll };
}
