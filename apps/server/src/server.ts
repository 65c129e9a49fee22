import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { bootstrapData } from './db/bootstrap.js';
import { openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { stopOnSignals } from './lib/graceful-shutdown.js';

/** Starts the product: database (embedded or PostgreSQL), migrations, first-start data, HTTP server. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, poolSize: config.DATABASE_POOL_SIZE });
  await migrate(database);
  const app = await buildApp({ config, database });
  await bootstrapData(database, config, (msg, extra) => app.log.info(extra ?? {}, msg));
  app.jobs.start();

  stopOnSignals({ app, database, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ database: database.kind, url: `http://${config.HOST}:${config.PORT}/backoffice/` }, 'server ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
