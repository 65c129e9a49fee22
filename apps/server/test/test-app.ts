import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { resetDatabase, testDatabase } from './test-database.js';

/** A fresh app on the worker's test database, emptied first. Close it in afterEach/afterAll. */
export async function buildTestApp(overrides: Partial<Config> = {}, opts: { now?: () => Date } = {}): Promise<FastifyInstance> {
  const database = await testDatabase();
  await resetDatabase(database);
  const config = loadConfig({ LOG_LEVEL: 'silent' }, { WEB_DIST_DIR: '/nonexistent-web-dist', ...overrides });
  return buildApp({ config, database, logger: false, ...opts });
}

/** Logs in through the API and returns the bearer header. */
export async function loginAs(app: FastifyInstance, username: string, password = 'secret'): Promise<{ authorization: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${res.json().access_token}` };
}
