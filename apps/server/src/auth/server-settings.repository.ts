import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { serverSettings } from '../db/schema.js';

/**
 * The value of a server setting, created with `initial()` when missing. Several processes starting
 * together agree: the first insert wins, the others read it.
 */
export async function settingOrCreate(db: Queryable, key: string, initial: () => string): Promise<string> {
  await db.insert(serverSettings).values({ key, value: initial() }).onConflictDoNothing();
  const [row] = await db.select().from(serverSettings).where(eq(serverSettings.key, key));
  if (!row) throw new Error(`The server setting ${key} could not be stored`);
  return row.value;
}
