/**
 * `npm run seed -w apps/server -- [--scale 1] [--seed 2026] [--password demo] [--force]`
 *
 * Loads the demo data into the database of DATABASE_URL (PostgreSQL) or, without it, the embedded
 * database under DATA_DIR (default ./data), migrating it first. A database that already has users
 * is left alone unless --force is given, which empties every table first.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { clearAllData, DEFAULT_SEED, hasUsers, seedDemo } from './seed-demo.js';

/** The key the server's first start seeds under: a CLI run and a starting server never seed together. */
const BOOTSTRAP_LOCK_KEY = 72_610_002;

const USAGE = `Usage: npm run seed -w apps/server -- [options]

  --scale <n>       size of the world: 1 ≈ 4,000 SKUs, 100 ≈ 400,000 (fractions allowed; default 1)
  --seed <n>        random seed; the same seed and scale give the same data (default ${DEFAULT_SEED})
  --password <pw>   password of the demo accounts (default DEMO_PASSWORD, else 'demo')
  --force           empty a database that already has users, then seed it
  --help            this text

Database: DATABASE_URL (PostgreSQL) or the embedded database under DATA_DIR (default ./data).`;

async function main(): Promise<number> {
  let values: ReturnType<typeof parseOptions>['values'];
  try {
    values = parseOptions().values;
  } catch (err) {
    return fail(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  const seed = values.seed === undefined ? DEFAULT_SEED : Number(values.seed);
  if (!Number.isFinite(scale) || scale <= 0) return fail(`--scale must be a number above 0, not '${values.scale}'`);
  if (!Number.isInteger(seed)) return fail(`--seed must be an integer, not '${values.seed}'`);

  const config = loadConfig(process.env);
  const target = config.DATABASE_URL ? `PostgreSQL ${redact(config.DATABASE_URL)}` : `embedded database in ${config.dataDir}`;
  console.log(`Seeding the ${target} (scale ${scale}, seed ${seed})`);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 2 });
  try {
    const applied = await migrate(database);
    if (applied.length > 0) console.log(`migrations applied: ${applied.join(', ')}`);
    return await database.withAdvisoryLock(BOOTSTRAP_LOCK_KEY, async () => {
      if (await hasUsers(database)) {
        if (!values.force) return fail('The database already has users: nothing done. Use --force to empty it and seed again.');
        console.log('--force: emptying every table');
        await clearAllData(database);
      }
      const started = performance.now();
      const summary = await seedDemo(database, {
        scale,
        seed,
        password: values.password ?? config.DEMO_PASSWORD,
        log: (line) => console.log(`  ${line}`),
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`Done: ${summary.totalRows.toLocaleString('en-US')} rows in ${seconds} s. Demo accounts: admin, creator, editor, submitter, viewer.`);
      return 0;
    });
  } finally {
    await database.close();
  }
}

function parseOptions() {
  return parseArgs({
    options: {
      scale: { type: 'string' },
      seed: { type: 'string' },
      password: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  },
);
