/**
 * `GET /api/metrics` in the Prometheus text format (prom-client; docs/operations.md "Metrics"):
 * - `http_requests_total` and `http_request_duration_seconds` per method, route (the route's pattern,
 *   never the raw URL, so ids do not multiply the series; `unmatched` for unknown paths) and status;
 * - `bo_jobs_queued` / `bo_jobs_running` and `bo_jobs_oldest_queued_seconds` per job kind, read from
 *   the jobs table at each scrape (so every process reports the shared queue);
 * - `bo_locks` (live item locks), `bo_db_pool_connections{state}` (PostgreSQL pool: total, idle, waiting);
 * - `bo_search_answers{source}`: home search list answers since the start, kept, refreshed or computed (lib/kept-answers.ts);
 * - `bo_process_info{pid}`: which server process answered (request counts are per process with WORKERS > 1);
 * - live events (docs/LIVE.md), per process: `bo_live_streams` open, `bo_live_events_sent_total{type}`, and
 *   `bo_live_event_lag_seconds`, from a notification's arrival at the process to an event it caused written on a stream;
 * - Node's own process metrics (prom-client's defaults: CPU, memory, heap, event loop lag, GC).
 *
 * Off unless `METRICS_TOKEN` is set (404); then the scraper sends `Authorization: Bearer <METRICS_TOKEN>`
 * (401 otherwise). The route needs no user session: it is listed as public on purpose.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import type { LiveEvent } from '@bo/shared/live-events';
import { notFound, unauthorized } from '../lib/errors.js';
import { liveLockCount, queuedAndRunningJobs } from './metrics.repository.js';

/** What the metrics count of the live event streams (areas/live/live-hub.ts reports to it). */
export interface LiveObserver {
  /** `count` events of a type written on one stream. */
  sent(type: LiveEvent['type'], count: number): void;
  /** Seconds from a notification's arrival at this process to the write that carried its events to a stream. */
  lag(seconds: number): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the live event hub counts for the metrics (registered before it). */
    liveMetrics: LiveObserver;
  }
}

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerMetrics(app: FastifyInstance): void {
  const token = app.config.METRICS_TOKEN;
  // One registry per app (tests build many apps in one process).
  const registry = new Registry();
  if (token) collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });

  const jobLabels = ['kind'] as const;
  const queued = new Gauge({ name: 'bo_jobs_queued', help: 'Jobs waiting to run, by kind', labelNames: jobLabels, registers: [registry] });
  const running = new Gauge({ name: 'bo_jobs_running', help: 'Jobs running, by kind', labelNames: jobLabels, registers: [registry] });
  const oldest = new Gauge({ name: 'bo_jobs_oldest_queued_seconds', help: 'Age of the oldest job waiting to run, by kind', labelNames: jobLabels, registers: [registry] });
  const locks = new Gauge({ name: 'bo_locks', help: 'Live item locks (renewed within LOCK_TTL_MINUTES)', registers: [registry] });
  // With WORKERS > 1 each process answers for itself (its request counts): this names which one did.
  new Gauge({ name: 'bo_process_info', help: 'The server process that answered the scrape', labelNames: ['pid'], registers: [registry] }).set({ pid: String(process.pid) }, 1);
  const answers = new Gauge({
    name: 'bo_search_answers',
    help: 'Home search list answers since the start: kept (from memory, the database unchanged), refreshed (only the items changed since read again) or computed',
    labelNames: ['source'],
    registers: [registry],
  });
  const liveStreams = new Gauge({ name: 'bo_live_streams', help: 'Live event streams open in this process', registers: [registry] });
  const liveSent = new Counter({ name: 'bo_live_events_sent_total', help: 'Live events written on streams, by type', labelNames: ['type'], registers: [registry] });
  const liveLag = new Histogram({
    name: 'bo_live_event_lag_seconds',
    help: "Time from a change's notification arriving at this process to the write that carried its events to a stream",
    buckets: [0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.decorate('liveMetrics', {
    sent: (type, count) => liveSent.inc({ type }, count),
    lag: (seconds) => liveLag.observe(seconds),
  } satisfies LiveObserver);
  const pool = new Gauge({ name: 'bo_db_pool_connections', help: 'PostgreSQL pool connections: total, idle, and callers waiting for one', labelNames: ['state'], registers: [registry] });

  async function readState(): Promise<void> {
    const db = app.database.db;
    const [jobRows, lockCount] = await Promise.all([queuedAndRunningJobs(db), liveLockCount(db, app.config.LOCK_TTL_MINUTES)]);
    queued.reset();
    running.reset();
    oldest.reset();
    for (const r of jobRows) {
      if (r.status === 'QUEUED') {
        queued.set({ kind: r.kind }, Number(r.n));
        oldest.set({ kind: r.kind }, Math.max(0, Number(r.oldest ?? 0)));
      } else {
        running.set({ kind: r.kind }, Number(r.n));
      }
    }
    locks.set(lockCount);
    liveStreams.set(app.liveHub?.openStreams ?? 0);
    answers.set({ source: 'kept' }, app.searchAnswers.counts.kept);
    answers.set({ source: 'refreshed' }, app.searchAnswers.counts.refreshed);
    answers.set({ source: 'computed' }, app.searchAnswers.counts.computed);
    const stats = app.database.poolStats();
    pool.reset();
    if (stats) for (const [state, n] of Object.entries(stats)) pool.set({ state }, n);
  }

  if (token) {
    app.addHook('onResponse', (request, reply, done) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }

  app.get(
    '/api/metrics',
    {
      config: { public: true },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (text format 0.0.4); off (404) unless METRICS_TOKEN is set, then Authorization: Bearer <METRICS_TOKEN>',
        response: { 200: z.string(), 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) => {
      if (!token) throw notFound('Metrics are off: set METRICS_TOKEN to turn them on');
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!sameToken(given, token)) throw unauthorized('A valid metrics token is required');
      await readState();
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
}
