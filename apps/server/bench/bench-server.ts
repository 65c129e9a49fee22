/**
 * The compiled server as `npm start` runs it (`dist/server.js`, the start script's V8 settings), started by the load
 * benchmarks (load.bench.ts, live-streams.bench.ts) on a benchmark database, its output in `dataDir/server-w<N>.log`.
 * BENCH_SERVER_NODE_ARGS adds Node options to the server's command line, after those of `npm start` (so they win):
 * e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a CPU profile of the server, `--max-semi-space-size=32` to try a V8 setting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/server-process.js';
import { startV8Flags } from '../test/start-flags.js';
import { request, sleep } from './load-client.js';

export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Server {
  url: string;
  child: ChildProcess;
  logFile: string;
  stop: () => Promise<number | null>;
}

export interface BenchServerOptions {
  /** The benchmark database's URL. */
  databaseUrl: string;
  workers: number;
  dataDir: string;
  metricsToken: string;
  /** More settings for the server's environment (they win over the bench's). */
  env?: Record<string, string>;
}

/** Starts the server and waits (up to 120 s) for /api/health. */
export async function startBenchServer(o: BenchServerOptions): Promise<Server> {
  const port = await freePort();
  const logFile = path.join(o.dataDir, `server-w${o.workers}.log`);
  const log = createWriteStream(logFile);
  const extraArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...startV8Flags(), ...extraArgs, 'dist/server.js'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATABASE_URL: o.databaseUrl,
      WORKERS: String(o.workers),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: o.dataDir,
      DEMO_DATA: 'never',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      METRICS_TOKEN: o.metricsToken,
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}); its log: ${logFile}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /api/health in 120 s; its log: ${logFile}`);
    }
    try {
      if ((await request(url, 'GET', '/api/health')).status === 200) break;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  return {
    url,
    child,
    logFile,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
