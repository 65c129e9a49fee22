import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { clientConfigSchema } from '@bo/shared/reference-data';
import { buildTestApp } from '../../../test/test-app.js';
import type { Config } from '../../config.js';

/**
 * GET /api/config tells the browser where the separate front office is (contract §1). Without
 * FRONT_OFFICE_URL there is none: the answer says null and the menu hides its Frontoffice entry,
 * rather than linking to a path this server answers with 404.
 */
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function configWith(config: Partial<Config>) {
  const test = await buildTestApp({ config, users: { admin: { role: 'ADMIN' } } });
  app = test.app;
  const res = await app.inject({ method: 'GET', url: '/api/config', headers: await test.as('admin') });
  expect(res.statusCode).toBe(200);
  return clientConfigSchema.parse(res.json());
}

describe('GET /api/config', () => {
  it('answers null without FRONT_OFFICE_URL', { timeout: 90_000 }, async () => {
    expect(await configWith({})).toEqual({ frontOfficeUrl: null });
  });
  it('answers the configured front office', { timeout: 90_000 }, async () => {
    expect(await configWith({ FRONT_OFFICE_URL: 'https://front.example.com/myStars' })).toEqual({ frontOfficeUrl: 'https://front.example.com/myStars' });
  });
});
