import { z } from 'zod';
import { api } from '@/lib/api-client';

export const jobSchema = z.object({
  id: z.number(),
  kind: z.string(),
  status: z.enum(['QUEUED', 'RUNNING', 'DONE', 'FAILED']),
  progress: z.number(),
  response: z.string().nullable(),
  result: z.unknown(),
});
export type Job = z.infer<typeof jobSchema>;

/** GET /api/jobs/:id */
export function getJob(id: number) {
  return api.get(`/jobs/${id}`, { schema: jobSchema, alertOnError: false });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a job until it ends (part 2 §9: first after 2 s, then every 0.5 s). */
export async function waitForJob(id: number, opts: { firstMs?: number; everyMs?: number; timeoutMs?: number } = {}): Promise<Job> {
  const { firstMs = 2000, everyMs = 500, timeoutMs = 5 * 60_000 } = opts;
  const deadline = Date.now() + timeoutMs;
  await sleep(firstMs);
  for (;;) {
    const job = await getJob(id);
    if (job.status === 'DONE' || job.status === 'FAILED' || Date.now() > deadline) return job;
    await sleep(everyMs);
  }
}
