import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import type { Db } from '../src/db/client.js';
import type { users } from '../src/db/schema.js';
import { loadConfig, type Config } from '../src/config.js';
import { buildReference, buildUser, type UserSpec } from './builders.js';
import { resetDatabase, testDatabase } from './test-database.js';

/** The bearer header of a logged-in user (a type, not an interface, so it fits `inject`'s headers). */
export type AuthHeader = { authorization: string };

/** A user of a test app: buildUser's spec, named by its key in `users` (password 'secret' unless given). */
export type TestUser = Omit<UserSpec, 'username'>;

/** Users by user name, e.g. `{ admin: { role: 'ADMIN' }, editor: { grants: { view: AUR_EU, edit: AUR_EU } } }`. */
export type TestUsers = Readonly<Record<string, TestUser>>;

export type UserRow = typeof users.$inferSelect;

/** What a test needs before its first request. Everything is optional: `{}` is an empty app. */
export interface TestAppSpec<Name extends string = never> {
  /** Users to create with buildUser, in this order, after the reference data. */
  users?: Readonly<Record<Name, TestUser>>;
  /** The reference world of buildReference (brands, zones, countries, months, …) first. */
  reference?: boolean;
  /** Config overrides, as environment names (e.g. `MAX_SEARCH_RESULTS: 5`). */
  config?: Partial<Config>;
  /** The app's clock for date-dependent screens (the Deletion Area's month window). */
  now?: () => Date;
  /** A fresh temporary DATA_DIR (the outbox gateway and exports write there), removed when the app closes. */
  tempDataDir?: boolean;
  /** Jobs run only when the test says so (`app.jobs.drain()` or `withJobRunner`); the app is made ready. */
  manualJobs?: boolean;
}

export interface TestApp<Name extends string = never> {
  app: FastifyInstance;
  db: Db;
  /** The rows of the created users, by user name (their ids for grant and user calls). */
  users: Readonly<Record<Name, UserRow>>;
  /** The app's DATA_DIR (the temporary one with `tempDataDir`). */
  dataDir: string;
  /**
   * The bearer header of one of the created users: logged in through the API on first use, then cached
   * (log in up front with `await as(user)` where a test needs the token before a change, or a race
   * between requests rather than logins). A method, so that a test may switch to the app of a smaller world.
   */
  as(username: Name): Promise<AuthHeader>;
}

/**
 * A fresh app on the worker's test database, emptied first, with what the test asked for. Close it
 * (`app.close()`) in afterEach/afterAll.
 *
 * ```ts
 * const { app, as } = await buildTestApp({ reference: true, users: { admin: { role: 'ADMIN' } }, config: { MAX_SEARCH_RESULTS: 5 } });
 * await app.inject({ method: 'GET', url: '/api/user/', headers: await as('admin') });
 * ```
 */
export async function buildTestApp<Name extends string = never>(spec: TestAppSpec<Name> = {}): Promise<TestApp<Name>> {
  if (spec.tempDataDir && spec.config?.DATA_DIR !== undefined) throw new Error('buildTestApp: tempDataDir and config.DATA_DIR both set');
  const database = await testDatabase();
  await resetDatabase(database);
  const tempDir = spec.tempDataDir ? await fs.mkdtemp(path.join(os.tmpdir(), 'bo-test-')) : undefined;
  const config = loadConfig(
    { LOG_LEVEL: 'silent' },
    { WEB_DIST_DIR: '/nonexistent-web-dist', ...(tempDir === undefined ? {} : { DATA_DIR: tempDir }), ...spec.config },
  );
  const app = await buildApp({ config, database, logger: false, now: spec.now, checkAnswers: true });
  if (tempDir !== undefined) {
    app.addHook('onClose', async () => {
      await fs.rm(tempDir, { recursive: true, force: true });
    });
  }
  const db = database.db;
  const specs: Partial<Record<Name, TestUser>> = spec.users ?? {};
  const rows = {} as Record<Name, UserRow>;
  try {
    if (spec.manualJobs) {
      await app.jobs.driveExternally();
      await app.ready();
    }
    if (spec.reference) await buildReference(db);
    for (const [username, user] of Object.entries(specs) as [Name, TestUser][]) rows[username] = await buildUser(db, { ...user, username });
  } catch (err) {
    // The caller never gets the app to close: close it here (and so remove the temp dir).
    await app.close();
    throw err;
  }

  const logins = new Map<Name, Promise<AuthHeader>>();
  return {
    app,
    db,
    users: rows,
    dataDir: config.dataDir,
    as(username) {
      const user = specs[username];
      if (!user) return Promise.reject(new Error(`${username} is not a user of this test app (${Object.keys(specs).join(', ')})`));
      let login = logins.get(username);
      if (!login) {
        login = loginAs(app, username, user.password);
        logins.set(username, login);
        // A failed login is not cached: the next call tries again.
        login.catch(() => logins.delete(username));
      }
      return login;
    },
  };
}

/** Logs in through the API and returns the bearer header (for users made outside `buildTestApp`'s `users`). */
export async function loginAs(app: FastifyInstance, username: string, password = 'secret'): Promise<AuthHeader> {
  const res = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${res.json().access_token}` };
}
