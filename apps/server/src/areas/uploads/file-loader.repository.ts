/** The SQL of Upload Files outside the release loader: the payload of an upload's preview job (Apply reads its release and type). */
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { jobs } from '../../db/schema.js';

export async function jobPayload(db: Queryable, jobId: number): Promise<unknown> {
  const [row] = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.id, jobId));
  return row?.payload ?? null;
}
