import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { jobStatusSchema } from '@bo/shared/jobs';
import { isAdmin } from '@bo/shared/permissions';
import { jobs } from '../db/schema.js';
import { currentUser } from '../plugins/auth.js';
import { forbidden, notFound } from '../lib/errors.js';

/** GET /api/jobs/:id — the progress (0–100) of long work, polled by the browser. */
export async function jobRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/jobs/:id',
    { schema: { tags: ['jobs'], params: z.object({ id: z.coerce.number().int().positive() }), response: { 200: jobStatusSchema } } },
    async (request) => {
      const user = currentUser(request);
      const [job] = await app.database.db.select().from(jobs).where(eq(jobs.id, request.params.id));
      if (!job) throw notFound('No such job');
      if (job.createdBy.toLowerCase() !== user.username.toLowerCase() && !isAdmin(user.grants)) throw forbidden('This job belongs to another user');
      const result = job.result as { checkpoint?: unknown } | null;
      return {
        id: job.id,
        kind: job.kind,
        status: job.status as 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED',
        progress: job.progress,
        response: job.response,
        result: result && 'checkpoint' in result ? null : result,
        createdAt: job.createdAt.toISOString(),
        finishedAt: job.finishedAt ? job.finishedAt.toISOString() : null,
      };
    },
  );
}
