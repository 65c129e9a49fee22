import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  clusterListItemSchema,
  filterOptionsQuerySchema,
  filterOptionsSchema,
  macroFamilyGroupSchema,
  moduleListItemSchema,
  searchCountSchema,
  searchFiltersSchema,
} from '@bo/shared/search';
import { contextOf } from '../../plugins/context.js';
import { sendText } from '../../lib/json-text.js';
import { compiledAnswers } from '../../plugins/answers.js';
import * as search from './search.service.js';

const errors = { 400: errorResponseSchema, 413: errorResponseSchema };

/** The home search (docs/DECISIONS.md "Home search"): options, counts and lists of modules and clusters. */
export async function searchRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);
  const moduleTags = ['modules', 'search'];
  const clusterTags = ['clusters', 'search'];
  // The list answers (up to MAX_SEARCH_RESULTS items) are written by the database and sent as they are;
  // the tests check them against these schemas (plugins/answers.ts).
  const writeAsBuilt = compiledAnswers(app);
  // The list answers kept while what they cover has not changed (lib/kept-answers.ts), SEARCH_CACHE_MB per process.
  const answers = app.searchAnswers;

  app.post(
    '/api/module/filters',
    {
      schema: {
        tags: moduleTags,
        summary: 'Filter options among the modules matching the other filters ({ <filterKey>: [{ value, label }] })',
        querystring: filterOptionsQuerySchema,
        body: searchFiltersSchema,
        response: { 200: filterOptionsSchema, 400: errorResponseSchema },
      },
    },
    (request) => search.filterOptions(ctx(request), 'module', request.body, request.query.keys),
  );
  app.post(
    '/api/cluster/filters',
    {
      schema: {
        tags: clusterTags,
        summary: 'Filter options among the clusters matching the other filters',
        querystring: filterOptionsQuerySchema,
        body: searchFiltersSchema,
        response: { 200: filterOptionsSchema, 400: errorResponseSchema },
      },
    },
    (request) => search.filterOptions(ctx(request), 'cluster', request.body, request.query.keys),
  );
  app.get(
    '/api/cluster/initialFilters',
    { schema: { tags: clusterTags, summary: 'The home filter options before any choice', response: { 200: filterOptionsSchema } } },
    (request) => search.initialFilters(ctx(request)),
  );

  app.post(
    '/api/module/filtered',
    {
      serializerCompiler: writeAsBuilt,
      schema: {
        tags: moduleTags,
        summary: 'Modules matching the filters, without SKU lists (413 past MAX_SEARCH_RESULTS)',
        body: searchFiltersSchema,
        response: { 200: z.array(moduleListItemSchema), ...errors },
      },
    },
    async (request) => sendText(await search.searchModules(ctx(request), answers, request.body)),
  );
  app.post(
    '/api/module/filteredDry',
    {
      schema: {
        tags: moduleTags,
        summary: 'How many modules /api/module/filtered would list (never 413): lets the browser warn before a big search',
        body: searchFiltersSchema,
        response: { 200: searchCountSchema, 400: errorResponseSchema },
      },
    },
    (request) => search.countItems(ctx(request), 'module', request.body),
  );
  app.post(
    '/api/module/macroFamily',
    {
      serializerCompiler: writeAsBuilt,
      schema: {
        tags: moduleTags,
        summary: 'The modules of the search grouped by macro family (best sellers and newness first, then alphabetical)',
        body: searchFiltersSchema,
        response: { 200: z.array(macroFamilyGroupSchema), ...errors },
      },
    },
    async (request) => sendText(await search.searchMacroFamilies(ctx(request), answers, request.body)),
  );
  app.post(
    '/api/cluster/filtered',
    {
      serializerCompiler: writeAsBuilt,
      schema: {
        tags: clusterTags,
        summary: 'Clusters matching the filters (413 past MAX_SEARCH_RESULTS)',
        body: searchFiltersSchema,
        response: { 200: z.array(clusterListItemSchema), ...errors },
      },
    },
    async (request) => sendText(await search.searchClusters(ctx(request), answers, request.body)),
  );
  app.post(
    '/api/cluster/filteredDry',
    {
      schema: {
        tags: clusterTags,
        summary: 'How many clusters /api/cluster/filtered would list (never 413)',
        body: searchFiltersSchema,
        response: { 200: searchCountSchema, 400: errorResponseSchema },
      },
    },
    (request) => search.countItems(ctx(request), 'cluster', request.body),
  );
}
