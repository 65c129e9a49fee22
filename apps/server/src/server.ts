import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { bootstrapData } from './seed/bootstrap.js';
import { openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import cluster from 'node:cluster';
import { stopOnSignals } from './lib/graceful-shutdown.js';
import { sweepSpool } from './lib/spool.js';
import { processRole, superviseWorkers, workerCount } from './lib/workers.js';
import { lowerEveryThreadToBackgroundNice } from './lib/background-nice.js';

/**
 * Starts the product: database (embedded or PostgreSQL), migrations, first-start data, HTTP server and job runner; with
 * WORKERS > 1 a worker is one or the other (lib/workers.ts `processRole`).
 */
async function main(config: ReturnType<typeof loadConfig>, workers: number) {
  const role = processRole();
  // The job process yields the cores to the planners' calls in every thread (its children, the workers that type
  // release files and draw exports, inherit it).
  const lowered = role === 'jobs' && lowerEveryThreadToBackgroundNice();
  const jobConcurrency = role === 'jobs' ? workers : 1;
  // Said once, when the first job's connection opens (jobs start after the app is built, whose log then says it): why
  // jobs' backends keep their priority (db/background-priority.ts).
  const PRIORITY_REFUSED = 'background jobs run at normal priority in PostgreSQL';
  let priorityRefused = (reason: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), msg: PRIORITY_REFUSED, reason }));
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: config.DATABASE_POOL_SIZE,
    jobConcurrency,
    onPriorityRefused: (reason) => priorityRefused(reason),
  });
  await migrate(database);
  const app = await buildApp({ config, database, jobConcurrency });
  priorityRefused = (reason) => app.log.info({ reason }, PRIORITY_REFUSED);
  await bootstrapData(database, config, (msg, extra) => app.log.info(extra ?? {}, msg));
  // Upload spool folders of processes killed mid-upload (lib/spool.ts); never a live process's.
  const orphans = await sweepSpool(config.dataDir);
  if (orphans.length) app.log.info({ folders: orphans }, 'removed orphaned spool folders');
  stopOnSignals({ app, database, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  if (role === 'jobs') {
    app.jobs.start();
    app.log.info({ database: database.kind, concurrency: workers, backgroundPriority: lowered }, 'job process ready');
    return;
  }
  if (role === 'http') app.jobs.runElsewhere();
  else app.jobs.start();

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ database: database.kind, url: `http://${config.HOST}:${config.PORT}/backoffice/` }, 'server ready');
}

try {
  const config = loadConfig();
  const workers = workerCount(config);
  // WORKERS processes on one port and a job process (lib/workers.ts): the primary only supervises.
  if (workers > 1 && cluster.isPrimary) {
    superviseWorkers(workers, (msg, extra) => console.log(JSON.stringify({ level: 30, time: Date.now(), msg, ...extra })));
  } else {
    main(config, workers).catch((err) => {
      console.error(err);
      process.exit(1);
    });
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
