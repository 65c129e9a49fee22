import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { jobs, locks } from '../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

/**
 * GET /api/metrics (plugins/metrics.ts): off without METRICS_TOKEN, guarded by it when set, and the
 * figures it promises: requests per route pattern and status, the job queue per kind, live locks, search answers kept.
 */
const TOKEN = 'metrics-token-0123456789';
let app: FastifyInstance | undefined;
let as: TestApp<'admin'>['as'];

afterEach(async () => {
  await app?.close();
  app = undefined;
});

const scrape = (authorization?: string) => app!.inject({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });

/** The value of one series of the text format, e.g. `bo_locks` or `bo_jobs_queued{kind="export"}`. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /api/metrics', () => {
  it('is off (404) without METRICS_TOKEN, whatever the token sent', async () => {
    ({ app } = await buildTestApp());
    for (const auth of [undefined, `Bearer ${TOKEN}`, 'Bearer ']) {
      const res = await scrape(auth);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('notFound');
    }
  });

  it('answers 401 without the token or with another one, and never takes a user session instead', async () => {
    ({ app, as } = await buildTestApp({ config: { METRICS_TOKEN: TOKEN }, users: { admin: { role: 'ADMIN' } } }));
    const userToken = (await as('admin')).authorization;
    for (const auth of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, userToken]) {
      const res = await scrape(auth);
      expect(res.statusCode, String(auth)).toBe(401);
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('counts requests by route pattern and status, and reports the job queue, the locks and the process', async () => {
    ({ app, as } = await buildTestApp({ config: { METRICS_TOKEN: TOKEN }, users: { admin: { role: 'ADMIN' } } }));
    const db = app.database.db;
    await db.insert(jobs).values([
      { kind: 'export', status: 'QUEUED', payload: {}, createdBy: 'a', createdAt: new Date(Date.now() - 90_000) },
      { kind: 'export', status: 'QUEUED', payload: {}, createdBy: 'a' },
      { kind: 'publish', status: 'RUNNING', payload: {}, createdBy: 'a' },
      { kind: 'publish', status: 'DONE', payload: {}, createdBy: 'a' },
    ]);
    await db.insert(locks).values([
      { itemType: 'module', itemKey: 'A', monthId: 'M01_2027', owner: 'x' },
      { itemType: 'cluster', itemKey: 'C', monthId: 'M01_2027', owner: 'x', renewedAt: new Date(Date.now() - 1000 * 60 * 60 * 24) },
    ]);
    const headers = await as('admin');
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/api/month/all', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/month/all' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/no/such/route/123', headers })).statusCode).toBe(404);
    // The same search twice, nothing written between: computed once, then kept.
    for (let i = 0; i < 2; i++) expect((await app.inject({ method: 'POST', url: '/api/module/filtered', headers, payload: { monthId: ['M01_2027'] } })).statusCode).toBe(200);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(value(text, 'http_requests_total{method="GET",route="/api/month/all",status_code="200"}')).toBe(3);
    expect(value(text, 'http_requests_total{method="GET",route="/api/month/all",status_code="401"}')).toBe(1);
    // Unknown paths share one series: the raw URL never becomes a label.
    expect(value(text, 'http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(text).not.toContain('/api/no/such/route/123');
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/api/month/all",status_code="200"}')).toBe(3);
    expect(value(text, 'bo_jobs_queued{kind="export"}')).toBe(2);
    expect(value(text, 'bo_jobs_running{kind="publish"}')).toBe(1);
    expect(value(text, 'bo_jobs_queued{kind="publish"}')).toBeUndefined();
    expect(value(text, 'bo_jobs_oldest_queued_seconds{kind="export"}')).toBeGreaterThanOrEqual(89);
    // The day-old lock lapsed (LOCK_TTL_MINUTES 120): one live lock.
    expect(value(text, 'bo_locks')).toBe(1);
    // Computed, then kept (computed or refreshed the second time when another test file's commit came between them on a
    // shared PostgreSQL).
    const computed = value(text, 'bo_search_answers{source="computed"}')!;
    expect(computed + value(text, 'bo_search_answers{source="kept"}')! + value(text, 'bo_search_answers{source="refreshed"}')!).toBe(2);
    if (app.database.kind === 'pglite') expect(computed).toBe(1);
    expect(text).toContain('process_resident_memory_bytes');
    expect(value(text, `bo_process_info{pid="${process.pid}"}`)).toBe(1);
    if (app.database.kind === 'postgres') expect(value(text, 'bo_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    else expect(text).not.toContain('bo_db_pool_connections{');
  });
});
