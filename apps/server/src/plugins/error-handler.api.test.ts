import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

/**
 * An unexpected failure (the database connection dropped, a bug) answers 500 with the usual error body
 * and a generic text: the driver's own words go to the log, never to the browser.
 */
const DRIVER_TEXT = 'connection terminated unexpectedly';

let app: FastifyInstance;
let as: TestApp<'admin'>['as'];
let logged: unknown[];

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: { admin: { role: 'ADMIN' } } }));
  logged = [];
  // The test app logs nothing: record what the handler hands to the request's logger instead.
  app.addHook('onRequest', async (request) => {
    vi.spyOn(request.log, 'error').mockImplementation((...args: unknown[]) => {
      logged.push(args);
    });
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await app.close();
});

const expectGeneric500 = (res: { statusCode: number; body: string; json: () => unknown }) => {
  expect(res.statusCode).toBe(500);
  expect(res.json()).toEqual({ error: 'internalError', message: 'Internal server error' });
  expect(res.body).not.toContain(DRIVER_TEXT);
};

describe('an internal error', () => {
  it('answers 500 { error, message } with a generic text for a plain Error, and logs the real one', async () => {
    // A test-only route whose handler fails the way pg does when the connection drops.
    app.post('/api/test-only/boom', async () => {
      throw new Error(DRIVER_TEXT);
    });
    const res = await app.inject({ method: 'POST', url: '/api/test-only/boom', headers: await as('admin'), payload: {} });
    expectGeneric500(res);
    expect(JSON.stringify(logged.map((args) => (args as [{ err: Error }])[0].err.message))).toContain(DRIVER_TEXT);
  });

  it('keeps a database error with a SQLSTATE outside the bad-value class, and its detail, out of the body', async () => {
    app.get('/api/test-only/db-down', async () => {
      const driverError = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', detail: 'relation "modules" secret detail' });
      throw new Error('Failed query: select * from modules', { cause: driverError });
    });
    const res = await app.inject({ method: 'GET', url: '/api/test-only/db-down', headers: await as('admin') });
    expectGeneric500(res);
    expect(res.body).not.toMatch(/terminating|Failed query|select|secret/);
  });

  it('answers the same on a real route whose database call fails', async () => {
    const headers = await as('admin');
    vi.spyOn(app.database.db, 'select').mockImplementation(() => {
      throw new Error(DRIVER_TEXT);
    });
    const res = await app.inject({ method: 'GET', url: '/api/month/all', headers });
    expectGeneric500(res);
  });
});
