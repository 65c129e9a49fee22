/**
 * Start-time benchmark (issue 19 "A compiled server"): `npm run bench:start -w apps/server -- [--runs 3]`
 *
 * Builds the server (scripts/build.mjs), creates an embedded database once (the first start seeds the
 * demo data; not measured), then starts the server again `--runs` times each way and prints the time
 * from spawning Node to the first 200 of GET /backoffice/login (the login page served) and the
 * process's RSS then: the compiled bundle as `npm start` runs it, and the TypeScript sources through the
 * tsx loader as `npm start` ran them before. The web app must be built (npm run build). The last line is
 * `BENCH_RESULT {json}`, read by `npm run bench`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/server-process.js';
import { startV8Flags } from '../test/start-flags.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } }, strict: true });
const runs = Math.max(1, Number(values.runs) || 3);

const v8Flags = startV8Flags();
if (!existsSync(path.join(SERVER_DIR, '..', 'web', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build');

async function startOnce(args: string[], dataDir: string, timeoutMs = 180_000): Promise<{ ms: number; rssMb: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: SERVER_DIR, env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '' }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      if (performance.now() - t0 > timeoutMs) throw new Error('the server did not serve the login page in time');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/backoffice/login`);
        if (res.status === 200) {
          await res.arrayBuffer();
          const ms = performance.now() - t0;
          const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
          return { ms, rssMb: rss };
        }
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: SERVER_DIR, stdio: 'inherit' });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
try {
  const compiled = [...v8Flags, 'dist/server.js'];
  const sources = [...v8Flags, '--import', 'tsx', 'src/server.ts'];
  const first = await startOnce(compiled, dataDir);
  console.log(`${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}`);
  console.log(`first start (creates and seeds the embedded database, not compared): ${(first.ms / 1000).toFixed(1)} s`);
  const medians: Record<string, number> = {};
  for (const [name, args] of [
    ['compiled (npm start)', compiled],
    ['sources through tsx', sources],
  ] as const) {
    const times: number[] = [];
    let rss = 0;
    for (let i = 0; i < runs; i++) {
      const r = await startOnce([...args], dataDir);
      times.push(r.ms);
      rss = Math.max(rss, r.rssMb);
    }
    times.sort((a, b) => a - b);
    medians[name === 'compiled (npm start)' ? 'compiledMs' : 'tsxMs'] = Math.round(times[Math.floor(times.length / 2)]!);
    medians[name === 'compiled (npm start)' ? 'compiledRssMb' : 'tsxRssMb'] = Math.round(rss);
    console.log(`${name.padEnd(22)} login page served after ${times.map((t) => (t / 1000).toFixed(2)).join(' / ')} s (median ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s), RSS then ≤ ${rss.toFixed(0)} MB`);
  }
  // Read by `npm run bench`: the medians (ms) and the RSS then (MB).
  console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'start', runs, ...medians })}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
