import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkLegoRequestSchema, monthSchema } from '@bo/shared/reference-data';
import { isLegoMonth, listMonths } from '../../items/lifecycle/months.repository.js';

export async function monthRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['months'];
  app.get('/api/month/all', { schema: { tags, summary: 'All months, sorted by year then month', response: { 200: z.array(monthSchema) } } }, () =>
    listMonths(app.database.db),
  );
  app.post(
    '/api/month/checkLego',
    { schema: { tags, summary: 'Is this a LEGO month for the brand and collection?', body: checkLegoRequestSchema, response: { 200: z.boolean() } } },
    (request) => isLegoMonth(app.database.db, request.body),
  );
  app.get(
    '/api/month/checkLego',
    { schema: { tags, querystring: checkLegoRequestSchema, response: { 200: z.boolean() } } },
    (request) => isLegoMonth(app.database.db, request.query),
  );
}
