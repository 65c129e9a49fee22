/**
 * The CPU the live hub spends fanning one batch out to its streams (issue 36; docs/LIVE.md "Fan-out"):
 * `npm run bench:live-fanout -w apps/server -- [--batches 300] [--streams 500]`.
 *
 * The real LiveHub and LiveStream, with no database: the hub's reads answer from memory (its `states`, the module
 * kind's `scopes`, and a stand-in for the viewers' query), so what is timed is the flush past its reads: deciding
 * who may see what and writing the frames. A batch holds 30 `item` events (brands MRA, NRD, VLT, AUR in the EU and NA
 * stars zones), 4 `scope` events, 3 `presence` events and one `lockLost`; the streams belong to 10 users with 5 kinds
 * of grants (admin; MRA; NRD; MRA + NRD in EU only; AUR), 50 streams each, each writing to a ServerResponse-like sink
 * that counts writes and characters; each event written is counted in a prom-client counter and histogram, as the
 * metrics plugin does. Prints CPU ms per batch (process.cpuUsage, user + system), writes and kilo-
 * characters per batch, and a digest of what every stream received from one batch (the same digest before and after
 * a change of the fan-out: the same frames, in the same order, to the same streams). Last line: `BENCH_RESULT {json}`.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Counter, Histogram, Registry } from 'prom-client';
import type { Grant } from '@bo/shared/grants';
import type { LiveEvent } from '@bo/shared/live-events';
import { LiveHub } from '../src/areas/live/live-hub.js';
import { NoticeBatch, refKey } from '../src/areas/live/live-notices.js';
import { LiveStream } from '../src/areas/live/live-stream.js';
import type { ItemRef, ItemState } from '../src/areas/live/live.repository.js';
import type { AuthUser } from '../src/auth/auth.service.js';
import type { Database } from '../src/db/client.js';
import { moduleKind } from '../src/items/module/module-kind.js';
import { ResponseSink } from '../test/response-sink.js';

const { values } = parseArgs({ options: { batches: { type: 'string', default: '300' }, streams: { type: 'string', default: '500' } }, strict: true });
const batches = Number(values.batches);
const streamCount = Number(values.streams);
const MONTH = '2026-11';

const grant = (brands: string[], starsZones: string[], role = 'VIEWER'): Grant => ({ role, types: ['view'], rules: [], brands, starsZones });
const PROFILES: Grant[][] = [
  [grant(['MRA', 'NRD', 'VLT', 'AUR'], ['EU', 'NA'], 'ADMIN')],
  [grant(['MRA'], ['EU', 'NA'])],
  [grant(['NRD'], ['EU', 'NA'])],
  [grant(['MRA', 'NRD'], ['EU'])],
  [grant(['AUR'], ['EU', 'NA'])],
];
const users: AuthUser[] = Array.from({ length: 10 }, (_, i) => ({
  userId: i + 1,
  username: `planner${i}`,
  email: `planner${i}@bench.invalid`,
  firstName: 'Bench',
  lastName: `Planner ${i}`,
  role: 'VIEWER',
  grants: PROFILES[i % PROFILES.length]!,
}));

const BRANDS = ['MRA', 'NRD', 'VLT', 'AUR'];
const states: ItemState[] = Array.from({ length: 30 }, (_, i) => ({
  kind: 'module',
  id: i + 1,
  name: `FANOUT_${String(i).padStart(3, '0')}`,
  monthId: MONTH,
  brandCode: BRANDS[i % BRANDS.length]!,
  status: 'Draft',
  version: 2 + (i % 5),
  lockedBy: i % 3 === 0 ? `planner${i % 10}` : null,
  savedAt: '2026-11-29T09:30:00.000Z',
  savedBy: `planner${(i + 1) % 10}`,
}));
const zonesOf = (id: number) => (id % 4 === 0 ? ['EU', 'NA'] : id % 2 === 0 ? ['NA'] : ['EU']);
const presenceRefs: ItemRef[] = states.slice(0, 3).map((s) => ({ kind: s.kind, name: s.name, monthId: s.monthId }));

// The hub's reads, from memory: the module kind's scopes, and the one query left (who has the presence items open).
moduleKind.scopes = async (_db, rows) => new Map(rows.map((r) => [r.id, { brand: (r as unknown as ItemState).brandCode, zones: zonesOf(r.id) }]));
const viewerRows = presenceRefs.map((r, i) => ({
  item_type: r.kind,
  item_key: r.name,
  month_id: r.monthId,
  username: `planner${i}`,
  first_name: 'Bench',
  last_name: `Planner ${i}`,
  mode: i === 0 ? 'editing' : 'viewing',
  since: '2026-11-29T09:00:00.000Z',
}));
const database = { db: { execute: async () => ({ rows: viewerRows }) } } as unknown as Database;

// What the metrics plugin does with each event written (plugins/metrics.ts): a counter by type and a histogram.
const registry = new Registry();
const sentCounter = new Counter({ name: 'sent', help: 'events by type', labelNames: ['type'], registers: [registry] });
const lagHistogram = new Histogram({ name: 'lag', help: 'lag', buckets: [0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5], registers: [registry] });
const sent = new Map<LiveEvent['type'], number>();
let lags = 0;
const hub = new LiveHub({
  database,
  lockTtlMinutes: 30,
  observer: {
    sent: (type, count) => {
      sentCounter.inc({ type }, count);
      sent.set(type, (sent.get(type) ?? 0) + count);
    },
    lag: (seconds) => {
      lagHistogram.observe(seconds);
      lags += 1;
    },
  },
  log: { warn: (extra, msg) => console.warn(msg, extra) },
});
const byKey = new Map(states.map((s) => [refKey(s), s]));
(hub as unknown as { states(refs: readonly ItemRef[]): Promise<Map<string, ItemState>> }).states = async (refs) =>
  new Map(refs.flatMap((r) => (byKey.has(refKey(r)) ? [[refKey(r), byKey.get(refKey(r))!] as const] : [])));
const flush = (batch: NoticeBatch) => (hub as unknown as { flush(b: NoticeBatch): Promise<void> }).flush(batch);

function makeBatch(): NoticeBatch {
  const batch = new NoticeBatch();
  batch.add(JSON.stringify({ i: states.map((s) => [s.kind, s.name, s.monthId]) }));
  batch.add(JSON.stringify({ s: [[MONTH, 'MRA'], [MONTH, 'NRD'], [MONTH, 'AUR'], [MONTH, '*']] }));
  batch.add(JSON.stringify({ p: presenceRefs.map((r) => [r.kind, r.name, r.monthId]) }));
  batch.add(JSON.stringify({ l: [['module', states[4]!.name, MONTH, 'planner3', 'forced', 'planner0']] }));
  return batch;
}

const totals = (sinks: readonly ResponseSink[]) => sinks.reduce((t, s) => ({ writes: t.writes + s.writes, chars: t.chars + s.chars }), { writes: 0, chars: 0 });

async function main() {
  const sinks: ResponseSink[] = [];
  for (let i = 0; i < streamCount; i += 1) {
    const sink = new ResponseSink();
    const user = users[i % users.length]!;
    const stream = new LiveStream(sink.response, user, `tab-${i}`);
    hub.add(stream, { key: user.username, recheck: async () => user }, Date.now() + 3_600_000);
    await hub.hello(stream);
    sinks.push(sink);
  }
  const batch = makeBatch();

  // What one batch writes to every stream, in stream order: the same digest means the same frames, order and streams.
  for (const s of sinks) s.record = true;
  await flush(batch);
  const digest = createHash('sha256');
  for (const s of sinks) digest.update(`${s.text}\u0000`);
  const framesPerBatch = sinks.reduce((n, s) => n + s.text.split('\n\n').length - 1, 0);
  for (const s of sinks) {
    s.record = false;
    s.forget();
  }

  for (let i = 0; i < Math.min(50, batches); i += 1) await flush(batch); // warm-up
  const before = totals(sinks);
  const eventsBefore = hub.counts.events;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < batches; i += 1) await flush(batch);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = totals(sinks);
  await hub.stop();

  const result = {
    streams: streamCount,
    batches,
    cpuMsPerBatch: Number(((used.user + used.system) / 1000 / batches).toFixed(3)),
    wallMsPerBatch: Number((wall / batches).toFixed(3)),
    writesPerBatch: (after.writes - before.writes) / batches,
    kiloCharsPerBatch: Number(((after.chars - before.chars) / batches / 1000).toFixed(1)),
    eventsPerBatch: (hub.counts.events - eventsBefore) / batches,
    framesPerBatch,
    observed: { sent: Object.fromEntries(sent), lags },
    digest: digest.digest('hex').slice(0, 16),
  };
  console.log(`live fan-out: ${streamCount} streams of ${users.length} users, ${batch.items.size} item + ${batch.scopes.size} scope + ${batch.presence.size} presence + ${batch.lockLosses.length} lockLost notices per batch`);
  console.log(`  CPU ${result.cpuMsPerBatch} ms per batch (wall ${result.wallMsPerBatch} ms), ${result.writesPerBatch} writes and ${result.kiloCharsPerBatch} k chars per batch, ${result.eventsPerBatch} events per batch`);
  console.log(`  digest of one batch's frames per stream: ${result.digest}`);
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
}

await main();
