import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSku } from '../../test/builders.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The token guard decides from the route the router matched, not from the raw URL: the attack that
 * reached `/api/month/all` as `/%61pi/month/all` (the router decodes, the old prefix check did not).
 */
let app: FastifyInstance;
let as: TestApp<'admin'>['as'];
let upc: string;

beforeAll(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: { admin: { role: 'ADMIN' } } }));
  upc = (await buildSku(app.database.db)).upc;
});
afterAll(async () => {
  await app.close();
});

describe('percent-encoded paths', () => {
  const encoded = () => [
    '/%61pi/month/all',
    '/ap%69/lia/all',
    '/api/%73tarsZone',
    '/%61pi/brand/all',
    '/%61pi/rule/all',
    '/%61pi/country/all',
    '/%61pi/collection/all',
    '/%61pi/planningChannel/all',
    '/%61pi/templates/getByTemplatesType?templatesType=modulo',
    '/%61pi/config',
    '/%61pi/month/checkLego?monthId=M01_2027&brandCode=AUR&collection=SUN',
    `/d%61ta/images/${upc}/1.png`,
    `/%64%61%74%61/images/${upc}/1.png`,
  ];

  it('reach the same routes, and so need the same token: 401 without one', async () => {
    for (const url of encoded()) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('answer as usual with a token (the router does decode them)', async () => {
    const headers = await as('admin');
    for (const url of encoded()) expect((await app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(200);
  });

  it('cannot make a protected route public by looking like a public one', async () => {
    for (const url of ['/api/health/../month/all', '/api/docs/../month/all', '/api/openapi.json/../month/all', '/api/docs%2F..%2Fmonth/all']) {
      const res = await app.inject({ method: 'GET', url });
      expect([401, 404], url).toContain(res.statusCode);
      expect(res.statusCode === 200, url).toBe(false);
    }
  });
});

describe('a malformed session cookie or address', () => {
  it('is a 401 (no token), never a 500', async () => {
    for (const cookie of ['bo_token=%', 'bo_token=%E0%A4%A', 'bo_token=%00', 'bo_token=']) {
      const res = await app.inject({ method: 'GET', url: '/api/month/all', headers: { cookie } });
      expect(res.statusCode, cookie).toBe(401);
    }
  });

  it('answers a URL that does not decode with 400 in the usual shape', async () => {
    for (const url of ['/api/month/%', '/api/%c0%ae%c0%ae/month/all', '/backoffice/%E0%A4%A']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(Object.keys(res.json()).sort(), url).toEqual(['error', 'message']);
    }
  });
});
