/**
 * The product's side of the export benchmark in a process of its own (export.bench.ts starts it):
 * the server's code as `npm start` runs it (Node with the tsx loader, the app built by buildApp on a
 * pool of PostgreSQL connections) and nothing else — no seeding, no bare writer, no rows of the
 * benchmark in memory — so that its memory is the product's.
 *
 * Reads BENCH_EXPORT_JOB (JSON: { url, templateId, month, names }), runs `xls_massive` of those
 * modules through the export service as an admin, streams the stored file back as a download does
 * into a file (BENCH_EXPORT_OUT), and prints one JSON line: seconds, bytes, and its RSS before the
 * export, its peak while it ran (sampled every 10 ms) and the kernel's high-water mark (VmHWM).
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import type { ServiceContext } from '../src/plugins/context.js';
import { exportModules } from '../src/areas/exports/exports.service.js';

interface Job {
  url: string;
  templateId: number;
  month: string;
  names: string[];
}

const job = JSON.parse(process.env.BENCH_EXPORT_JOB ?? 'null') as Job | null;
const outPath = process.env.BENCH_EXPORT_OUT;
if (!job || !outPath) throw new Error('BENCH_EXPORT_JOB and BENCH_EXPORT_OUT are required');

const kernelHighWater = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

const database = await openDatabase({ url: job.url, poolSize: 10 });
const config = loadConfig({ LOG_LEVEL: 'silent' }, { WEB_DIST_DIR: '/nonexistent-web-dist', EXPORT_WAIT_MS: 3_600_000 });
const app = await buildApp({ config, database, logger: false });
await app.ready();
const ctx: ServiceContext = {
  db: database.db,
  config,
  jobs: app.jobs,
  user: { userId: 0, username: 'bench', email: 'bench@example.com', firstName: 'Bench', lastName: 'Mark', role: 'ADMIN', grants: [{ role: 'ADMIN', types: ['view', 'edit', 'submit'], rules: [], brands: [], starsZones: [] }] },
  requestId: 'bench-export',
};

globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const highWaterBefore = kernelHighWater();
let peak = rssBefore;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
const t0 = performance.now();
const answer = await exportModules(ctx, 'xls_massive', { templateId: job.templateId, status: 'Published' }, job.names.map((moduleName) => ({ moduleName, monthId: job.month })));
if (!answer.done) throw new Error('The export did not finish');
const content = answer.file.content;
await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, createWriteStream(outPath));
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);

await app.close();
await database.close();
console.log(JSON.stringify({ seconds, rssBefore, peak, highWaterBefore, highWater: kernelHighWater() }));
