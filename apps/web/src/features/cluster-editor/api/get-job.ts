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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls GET /api/jobs/:id until the job ends (part 2 §9: first after 2 s, then every 0.5 s). */
export async function waitForJob(id: number, onProgress?: (job: Job) => void): Promise<Job> {
  const deadline = Date.now() + 5 * 60_000;
  await sleep(2000);
  for (;;) {
    const job = await api.get(`/jobs/${id}`, { schema: jobSchema, alertOnError: false });
    onProgress?.(job);
    if (job.status === 'DONE' || job.status === 'FAILED' || Date.now() > deadline) return job;
    await sleep(500);
  }
}
