import { jobStatusSchema, type JobStatus } from '@bo/shared/jobs';
import { api } from './api-client';

export type Job = JobStatus;

/** GET /api/jobs/:id */
export function getJob(id: number) {
  return api.get(`/jobs/${id}`, { schema: jobStatusSchema, alertOnError: false });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface WaitForJobOptions {
  firstMs?: number;
  everyMs?: number;
  timeoutMs?: number;
  /** Called with every answer (progress bars). */
  onProgress?: (job: Job) => void;
}

/** Polls a persisted job until it ends (part 2 §9: first after 2 s, then every 0.5 s). */
export async function waitForJob(id: number, opts: WaitForJobOptions = {}): Promise<Job> {
  const { firstMs = 2000, everyMs = 500, timeoutMs = 5 * 60_000, onProgress } = opts;
  const deadline = Date.now() + timeoutMs;
  await sleep(firstMs);
  for (;;) {
    const job = await getJob(id);
    onProgress?.(job);
    if (job.status === 'DONE' || job.status === 'FAILED' || Date.now() > deadline) return job;
    await sleep(everyMs);
  }
}
