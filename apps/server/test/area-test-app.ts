/**
 * The test app of the home areas' API tests (badges, the Pending Area, the Discontinuation / Removed Area,
 * statistics): the reference world and the file's users, started by the test and closed after it.
 */
import { afterEach } from 'vitest';
import type { Config } from '../src/config.js';
import { AUR_EU } from './builders.js';
import { buildTestApp, type TestApp, type TestUser, type TestUsers } from './test-app.js';

/** The users of the home bells' tests: an admin, an AUR/EU editor, an AUR+VLT viewer, a VLT/EU editor. */
export const BELL_USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] } } },
  vlt: { grants: { view: { brands: ['VLT'], zones: ['EU'] }, edit: { brands: ['VLT'], zones: ['EU'] } } },
} as const satisfies TestUsers;

/**
 * For one test file: `start` builds a fresh app with `users` (and config overrides), which is closed
 * after each test; `app()`, `db()` and `as(user)` reach the app started last.
 */
export function useAreaApp<User extends string>(users: Readonly<Record<User, TestUser>>) {
  let test: TestApp<User> | undefined;
  afterEach(async () => {
    await test?.app.close();
    test = undefined;
  });
  const current = () => {
    if (!test) throw new Error('useAreaApp: start() the app first');
    return test;
  };
  return {
    start: async (config?: Partial<Config>) => {
      test = await buildTestApp({ reference: true, users, config });
    },
    app: () => current().app,
    db: () => current().db,
    as: (user: User) => current().as(user),
  };
}
