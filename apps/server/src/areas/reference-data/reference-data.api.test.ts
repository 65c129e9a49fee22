import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { AUR_EU } from '../../../test/builders.js';
import { buildTestApp, type AuthHeader } from '../../../test/test-app.js';

let app: FastifyInstance;
let headers: AuthHeader;

beforeAll(async () => {
  const test = await buildTestApp({
    config: { FRONT_OFFICE_URL: 'https://front.example.com/myStars' },
    reference: true,
    users: { viewer: { role: 'VIEWER', grants: { view: AUR_EU } } },
  });
  app = test.app;
  headers = await test.as('viewer');
});
afterAll(async () => {
  await app.close();
});

const get = async (url: string) => {
  const res = await app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, url).toBe(200);
  return res.json();
};

describe('reference data', () => {
  it('lists LIAs, unchecked', async () => {
    expect(await get('/api/lia/all')).toEqual([{ liaCode: 'LIA01', planningChannelId: 'RETAIL', isChecked: false }]);
  });
  it('lists stars zones, brands, rules, countries, collections and channels', async () => {
    expect(await get('/api/starsZone')).toEqual([
      { starsZone: 'EU', description: 'Europe' },
      { starsZone: 'NA', description: 'North America' },
    ]);
    expect((await get('/api/brand/all')).map((b: { brandCode: string }) => b.brandCode)).toEqual(['AUR', 'VLT']);
    expect((await get('/api/rule/all')).map((r: { ruleCode: string }) => r.ruleCode)).toEqual(['create', 'delete']);
    expect(await get('/api/country/all')).toEqual([
      { countryCode: 'FR', name: 'France', starsZone: 'EU' },
      { countryCode: 'IT', name: 'Italy', starsZone: 'EU' },
      { countryCode: 'US', name: 'United States', starsZone: 'NA' },
    ]);
    expect((await get('/api/collection/all')).map((c: { collectionCode: string }) => c.collectionCode)).toEqual(['OPTICAL', 'SUN']);
    expect(await get('/api/planningChannel/all')).toEqual([{ planningChannelId: 'RETAIL', label: 'Retail' }]);
  });
  it('lists templates of one type', async () => {
    expect(await get('/api/templates/getByTemplatesType?templatesType=modulo')).toEqual([{ templateId: 1, templateLabel: 'Standard' }]);
    expect(await get('/api/templates/getByTemplatesType?templatesType=none')).toEqual([]);
    const bad = await app.inject({ method: 'GET', url: '/api/templates/getByTemplatesType', headers });
    expect(bad.statusCode).toBe(400);
  });
  it('tells the browser where the front office is', async () => {
    expect(await get('/api/config')).toEqual({ frontOfficeUrl: 'https://front.example.com/myStars' });
  });
});

describe('months', () => {
  it('lists months sorted by year then month, with their open state', async () => {
    expect(await get('/api/month/all')).toEqual([
      { monthId: 'M12_2026', open: false },
      { monthId: 'M01_2027', open: true },
      { monthId: 'M02_2027', open: true },
      { monthId: 'M10_2027', open: true },
    ]);
  });
  it('answers the LEGO status as a boolean', async () => {
    const check = (payload: object) => app.inject({ method: 'POST', url: '/api/month/checkLego', headers, payload });
    expect((await check({ monthId: 'M01_2027', brandCode: 'AUR', collection: 'SUN' })).json()).toBe(true);
    expect((await check({ monthId: 'M01_2027', brandCode: 'AUR', collection: 'OPTICAL' })).json()).toBe(false);
    expect((await check({ monthId: 'M02_2027', brandCode: 'AUR', collection: 'SUN' })).json()).toBe(false);
    expect((await get('/api/month/checkLego?monthId=M01_2027&brandCode=AUR&collection=SUN'))).toBe(true);
  });
  it('refuses a malformed month id with 400', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/month/checkLego', headers, payload: { monthId: '2027-01', brandCode: 'AUR', collection: 'SUN' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].path).toBe('body.monthId');
  });
});

describe('operations', () => {
  it('reports health: database reachable and migrations applied', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', migrations: 'ok', pending: [] });
  });
  it('serves the API description with the spec paths', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/authorization/login', '/api/month/all', '/api/lia/all']));
  });
  it('redirects / to the back office', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/backoffice/');
  });
  it('answers unknown API routes with a JSON 404 once authenticated', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing/here', headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('notFound');
  });
});
