import { sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import { queryRows, type Database } from '../db/client.js';
import { users } from '../db/schema.js';
import { hashPassword } from '../auth/password.js';
import { findUserByUsername } from '../auth/users.repository.js';
import { seedDemo } from './seed-demo.js';
import { ensureProductData } from '../db/product-data.js';

const BOOTSTRAP_LOCK_KEY = 72_610_002;

async function userCount(database: Database): Promise<number> {
  const rows = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM users`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * First-start data (contract §4): demo data on an empty embedded database (or on any empty database
 * with DEMO_DATA=always), the product's own data on every installation (product-data.ts: rules and
 * export templates, missing ones created), and the first administrator from ADMIN_USERNAME / ADMIN_PASSWORD.
 * Serialised across processes so two servers starting together do not both seed.
 */
export async function bootstrapData(database: Database, config: Config, log: (msg: string, extra?: object) => void): Promise<void> {
  await database.withAdvisoryLock(BOOTSTRAP_LOCK_KEY, async () => {
    const wantsDemo = config.DEMO_DATA === 'always' || (config.DEMO_DATA === 'auto' && database.kind === 'pglite');
    if (wantsDemo && (await userCount(database)) === 0) {
      const started = Date.now();
      log('loading demo data', { scale: config.DEMO_SCALE });
      const summary = await seedDemo(database, { scale: config.DEMO_SCALE, password: config.DEMO_PASSWORD });
      log('demo data loaded', { ms: Date.now() - started, summary });
    }
    // After the demo seed, which writes the same rows with their ids.
    const added = await ensureProductData(database.db);
    if (added.rules || added.templates) log('product data created', added);
    if (config.ADMIN_USERNAME && config.ADMIN_PASSWORD) {
      const existing = await findUserByUsername(database.db, config.ADMIN_USERNAME);
      if (!existing) {
        await database.db.insert(users).values({
          username: config.ADMIN_USERNAME,
          email: config.ADMIN_USERNAME.includes('@') ? config.ADMIN_USERNAME : `${config.ADMIN_USERNAME}@localhost`,
          firstName: 'Administrator',
          lastName: '',
          passwordHash: await hashPassword(config.ADMIN_PASSWORD),
          role: 'ADMIN',
          status: 'Enabled',
        });
        log('first administrator created', { username: config.ADMIN_USERNAME });
      }
    }
  });
}
