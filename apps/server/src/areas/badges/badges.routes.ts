import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badgeCountsSchema, pendingAlertsSchema } from '@bo/shared/badges';
import { contextOf } from '../../plugins/context.js';
import * as badges from './badges.service.js';

/** The home sidebar's bells (the LEGO badge is POST /api/month/checkLego). */
export async function badgeRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/module/countPendingAreaAlerts',
    {
      schema: {
        tags: ['badges'],
        summary: 'The Pending Area’s items: live WIP (and stuck SUBMIT_IN_PROGRESS) modules and clusters of open months that the caller may edit',
        response: { 200: pendingAlertsSchema },
      },
    },
    (request) => badges.countPendingAreaAlerts(contextOf(app, request)),
  );
  app.get(
    '/api/sku/badgeCounts',
    {
      schema: {
        tags: ['badges'],
        summary: 'Discontinued (numDisco) and deleted (numRemoved) SKUs still in live modules of open months the caller may view',
        response: { 200: badgeCountsSchema },
      },
    },
    (request) => badges.badgeCounts(contextOf(app, request)),
  );
}
