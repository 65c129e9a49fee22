import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { bootstrapData } from './db/bootstrap.js';
import { openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';

/** Starts the product: database (embedded or PostgreSQL), migrations, first-start data, HTTP server. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, poolSize: config.DATABASE_POOL_SIZE });
  await migrate(database);
  const app = await buildApp({ config, database });
  await bootstrapData(database, config, (msg, extra) => app.log.info(extra ?? {}, msg));
  app.jobs.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await app.jobs.stop();
      await app.close();
      await database.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ database: database.kind, url: `http://${config.HOST}:${config.PORT}/backoffice/` }, 'server ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
