/** The health check's SQL: the database answers. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** Runs `SELECT 1`; throws when the database does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
