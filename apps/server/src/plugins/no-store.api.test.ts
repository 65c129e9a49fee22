import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUR_EU, buildSku } from '../../test/builders.js';
import { listApiRoutes, urlFor } from '../../test/attack/openapi-routes.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { IMMUTABLE } from './static-web.js';

/**
 * `Cache-Control: no-store` on every answer of the API and of /data (plugins/no-store.ts): the token (login,
 * GET /api/authorization/session), the data and the errors are kept by no browser or proxy cache. The web app's
 * files keep their own caching (static-web.ts); the SKU pictures theirs (images.routes.ts).
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-no-store-'));
const dist = path.join(tmp, 'dist');
const ASSET = 'assets/index-Ab12_cD-.js';

let t: TestApp<'admin' | 'editor'>;
let app: FastifyInstance;

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dist, ASSET), 'export const app = 1;\n');
  t = await buildTestApp({ reference: true, users: { admin: { role: 'ADMIN' }, editor: { role: 'EDITOR', grants: { view: AUR_EU } } }, config: { WEB_DIST_DIR: dist } });
  app = t.app;
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cacheControl = (res: { headers: Record<string, unknown> }) => res.headers['cache-control'];

describe('Cache-Control: no-store', () => {
  it('on the login answer (the token) and on a failed login', async () => {
    const ok = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'editor', password: 'secret' } });
    expect(ok.statusCode).toBe(200);
    expect(cacheControl(ok)).toBe('no-store');
    const bad = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'editor', password: 'wrong' } });
    expect(bad.statusCode).toBe(401);
    expect(cacheControl(bad)).toBe('no-store');
  });

  it('on GET /api/authorization/session (the token again) and on logout', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/authorization/session', headers: await t.as('editor') });
    expect(res.statusCode).toBe(200);
    expect(cacheControl(res)).toBe('no-store');
    const out = await app.inject({ method: 'POST', url: '/api/authorization/logout' });
    expect(out.statusCode).toBe(204);
    expect(cacheControl(out)).toBe('no-store');
  });

  it('on a JSON list, a 400, a 401, a 403 and a 404 of the API', async () => {
    const admin = await t.as('admin');
    const answers = {
      list: await app.inject({ method: 'GET', url: '/api/month/all', headers: admin }),
      badRequest: await app.inject({ method: 'POST', url: '/api/month/checkLego', headers: admin, payload: {} }),
      unauthorized: await app.inject({ method: 'GET', url: '/api/month/all' }),
      forbidden: await app.inject({ method: 'GET', url: '/api/user/', headers: await t.as('editor') }),
      notFound: await app.inject({ method: 'GET', url: '/api/no/such/route', headers: admin }),
      notFoundAnonymous: await app.inject({ method: 'GET', url: '/api/no/such/route' }),
      dataUnauthorized: await app.inject({ method: 'GET', url: '/data/export/files/1' }),
      dataNotFound: await app.inject({ method: 'GET', url: '/data/export/files/999', headers: admin }),
      health: await app.inject({ method: 'GET', url: '/api/health' }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, [r.statusCode, cacheControl(r)]]))).toEqual({
      list: [200, 'no-store'],
      badRequest: [400, 'no-store'],
      unauthorized: [401, 'no-store'],
      forbidden: [403, 'no-store'],
      notFound: [404, 'no-store'],
      notFoundAnonymous: [401, 'no-store'],
      dataUnauthorized: [401, 'no-store'],
      dataNotFound: [404, 'no-store'],
      health: [200, 'no-store'],
    });
  });

  it('on the 401 of every protected route of the API description', async () => {
    const missing: string[] = [];
    for (const route of await listApiRoutes(app)) {
      if (!route.protected) continue;
      const res = await app.inject({ method: route.method, url: urlFor(route) });
      if (res.statusCode !== 401 || cacheControl(res) !== 'no-store') missing.push(`${route.key} → ${res.statusCode} ${String(cacheControl(res))}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('what keeps its own caching', () => {
  it('the web app: hashed assets immutable, index.html and public files revalidated, redirects without a header', async () => {
    const asset = await app.inject({ method: 'GET', url: `/backoffice/${ASSET}` });
    expect([asset.statusCode, cacheControl(asset)]).toEqual([200, IMMUTABLE]);
    for (const url of ['/backoffice/', '/backoffice/module', '/backoffice/favicon.svg']) {
      const res = await app.inject({ method: 'GET', url });
      expect([res.statusCode, cacheControl(res)], url).toEqual([200, 'no-cache']);
    }
    const redirect = await app.inject({ method: 'GET', url: '/' });
    expect([redirect.statusCode, cacheControl(redirect)]).toEqual([302, undefined]);
  });

  it('a SKU picture: private, for a day (its pixels never change); its 404 is not kept', async () => {
    const sku = await buildSku(t.db);
    const admin = await t.as('admin');
    const picture = await app.inject({ method: 'GET', url: `/data/images/${sku.upc}/1.png`, headers: admin });
    expect([picture.statusCode, cacheControl(picture)]).toEqual([200, 'private, max-age=86400, immutable']);
    const none = await app.inject({ method: 'GET', url: '/data/images/000000000000/1.png', headers: admin });
    expect([none.statusCode, cacheControl(none)]).toEqual([404, 'no-store']);
  });
});
