import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { jobs } from '../db/schema.js';

export type JobRecord = typeof jobs.$inferSelect;

export async function findJob(db: Queryable, id: number): Promise<JobRecord | null> {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  return job ?? null;
}
