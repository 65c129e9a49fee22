import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pendingMigrations } from '../../db/migrate.js';
import { pingDatabase } from './health.repository.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['ok', 'pending', 'unknown']),
  pending: z.array(z.string()),
});

/** Liveness and readiness: the database answers and every migration is applied. */
export async function healthRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get('/api/health', { config: { public: true }, schema: { tags: ['operations'], response: { 200: healthSchema, 503: healthSchema } } }, async (request, reply) => {
    try {
      await pingDatabase(app.database.db);
    } catch (err) {
      request.log.error({ err }, 'health: database unreachable');
      return reply.status(503).send({ status: 'error', database: 'unreachable', migrations: 'unknown', pending: [] });
    }
    const pending = await pendingMigrations(app.database).catch(() => null);
    if (pending === null) return reply.status(503).send({ status: 'error', database: 'ok', migrations: 'unknown', pending: [] });
    if (pending.length > 0) return reply.status(503).send({ status: 'error', database: 'ok', migrations: 'pending', pending });
    return { status: 'ok' as const, database: 'ok' as const, migrations: 'ok' as const, pending: [] };
  });
}
