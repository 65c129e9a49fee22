import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brandSchema,
  clientConfigSchema,
  collectionSchema,
  countrySchema,
  liaSchema,
  planningChannelSchema,
  ruleSchema,
  starsZoneSchema,
  templateSchema,
  templatesQuerySchema,
} from '@bo/shared/reference-data';
import * as repo from '../../items/lifecycle/reference-data.repository.js';

/** Lists every screen needs: LIAs, stars zones, brands, rules, countries, collections, channels, templates. */
export async function referenceDataRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const db = () => app.database.db;
  const tags = ['reference data'];

  app.get('/api/lia/all', { schema: { tags, response: { 200: z.array(liaSchema) } } }, async () =>
    (await repo.listLias(db())).map((l) => ({ ...l, isChecked: false })),
  );
  app.get('/api/starsZone', { schema: { tags, response: { 200: z.array(starsZoneSchema) } } }, () => repo.listStarsZones(db()));
  app.get('/api/brand/all', { schema: { tags, response: { 200: z.array(brandSchema) } } }, () => repo.listBrands(db()));
  app.get('/api/rule/all', { schema: { tags, response: { 200: z.array(ruleSchema) } } }, () => repo.listRules(db()));
  app.get('/api/country/all', { schema: { tags, summary: 'The countries list', response: { 200: z.array(countrySchema) } } }, () =>
    repo.listCountries(db()),
  );
  app.get('/api/collection/all', { schema: { tags, response: { 200: z.array(collectionSchema) } } }, () => repo.listCollections(db()));
  app.get('/api/planningChannel/all', { schema: { tags, response: { 200: z.array(planningChannelSchema) } } }, () =>
    repo.listPlanningChannels(db()),
  );
  app.get(
    '/api/templates/getByTemplatesType',
    { schema: { tags, querystring: templatesQuerySchema, response: { 200: z.array(templateSchema) } } },
    (request) => repo.listTemplates(db(), request.query.templatesType),
  );
  app.get('/api/config', { schema: { tags, summary: 'Settings the browser needs', response: { 200: clientConfigSchema } } }, async () => ({
    frontOfficeUrl: app.config.FRONT_OFFICE_URL || null,
  }));
}
