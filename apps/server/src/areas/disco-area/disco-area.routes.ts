import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  discoAlertSchema,
  discoFilterOptionsSchema,
  discoFiltersSchema,
  discoListRequestSchema,
  discoPageSchema,
  replacementProposalsSchema,
  replacementRequestSchema,
  type DiscoView,
} from '@bo/shared/disco-area';
import { contextOf } from '../../plugins/context.js';
import * as disco from './disco-area.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema };
const tags = ['disco-area'];

/** The two views' paths (part 1 §7, part 2 §7): the list and its filter options. */
const PATHS: Record<DiscoView, { list: string; filters: string; what: string }> = {
  disco: { list: '/api/sku/skuDiscoInfo', filters: '/api/sku/skuDiscoInfoFilters', what: 'discontinued' },
  removed: { list: '/api/sku/skuDeletedInfo', filters: '/api/sku/skuDeletedInfoFilters', what: 'removed' },
};

/** The Discontinuation / Removed Area (docs/disco-area.md): lists, filter options, alert counts, guided replacement. */
export async function discoAreaRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  for (const view of ['disco', 'removed'] as const) {
    const p = PATHS[view];
    app.post(
      p.list,
      {
        schema: {
          tags,
          summary: `One page (pageIndex, zero-based) of the ${p.what} SKU lines in live modules of open months the caller may view`,
          body: discoListRequestSchema,
          response: { 200: discoPageSchema, ...errors },
        },
      },
      (request) => disco.discoList(contextOf(app, request), view, request.body),
    );
    app.get(
      p.filters,
      {
        schema: { tags, summary: `The initial filter options among the caller's ${p.what} SKU lines`, response: { 200: discoFilterOptionsSchema, ...errors } },
      },
      (request) => disco.filterOptions(contextOf(app, request), view),
    );
    app.post(
      p.filters,
      {
        schema: {
          tags,
          summary: `The filter options among the caller's ${p.what} SKU lines, each narrowed by the other chosen filters`,
          body: discoFiltersSchema,
          response: { 200: discoFilterOptionsSchema, ...errors },
        },
      },
      (request) => disco.filterOptions(contextOf(app, request), view, request.body),
    );
  }
  app.get(
    '/api/sku/skuDiscoAlert/',
    {
      schema: { tags, summary: 'Discontinued (numDisco) and removed (numRemoved) SKUs in modules: the home bells’ counts', response: { 200: discoAlertSchema, ...errors } },
    },
    (request) => disco.discoAlert(contextOf(app, request)),
  );
  app.post(
    '/api/sku/replacementProposals',
    {
      schema: {
        tags,
        summary: 'Guided replacement: up to five active SKUs of the same brand, macro family and collection, and the lines the caller may change',
        body: replacementRequestSchema,
        response: { 200: replacementProposalsSchema, 404: errorResponseSchema, ...errors },
      },
    },
    (request) => disco.replacementProposals(contextOf(app, request), request.body.upc),
  );
}
