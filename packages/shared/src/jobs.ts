import { z } from 'zod';

/** GET /api/jobs/:id — the state of long work (publish, copy, export …), polled by the browser. */
export const jobStatusSchema = z.object({
  id: z.number(),
  kind: z.string(),
  status: z.enum(['QUEUED', 'RUNNING', 'DONE', 'FAILED']),
  /** 0–100 */
  progress: z.number(),
  /** Human-readable answer, ';'-separated lines. */
  response: z.string().nullable(),
  result: z.unknown(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type JobStatus = z.infer<typeof jobStatusSchema>;
