import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  activeSkuSearchResponseSchema,
  activeSkuSearchSchema,
  clusterAnalysisRequestSchema,
  clusterAnalysisResponseSchema,
  extraSellInRequestSchema,
  importModulesRequestSchema,
  importModulesResponseSchema,
  modulesRequestSchema,
  modulesResponseSchema,
  newnessLegoRequestSchema,
  newnessNotLegoRequestSchema,
  newnessResponseSchema,
  performancesRequestSchema,
  performancesResponseSchema,
  publishedProductRequestSchema,
  publishedProductResponseSchema,
} from '@bo/shared/working-area';
import { contextOf } from '../../plugins/context.js';
import { compiledAnswers } from '../../plugins/answers.js';
import * as workingArea from './working-area.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 413: errorResponseSchema };

/** The calls of the module page (part 1 §2 Module editor, part 2 §2 Working Area). */
export async function workingAreaRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['working-area'];
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);
  // A page of modules is thousands of SKUs: written by a serializer compiled from the schema, checked in tests (plugins/answers.ts).
  const compiled = compiledAnswers(app);

  app.post(
    '/api/module/modules',
    {
      serializerCompiler: compiled,
      schema: { tags, summary: 'The modules of the page, with their SKUs', body: modulesRequestSchema, response: { 200: modulesResponseSchema, ...errors } },
    },
    (request) => workingArea.loadModules(ctx(request), request.body.moduleDtoList, request.body.ibicFilters),
  );
  app.post(
    '/api/module/importModules',
    {
      serializerCompiler: compiled,
      schema: {
        tags,
        summary: 'Modules to add to the page: by key, or every module of a macro family in a month',
        body: importModulesRequestSchema,
        response: { 200: importModulesResponseSchema, ...errors },
      },
    },
    (request) => workingArea.importModules(ctx(request), request.body),
  );
  app.post(
    '/api/module/modulePerformances',
    { schema: { tags, summary: 'Sell-out per SKU, stars zone and segmentation over the rolling months', body: performancesRequestSchema, response: { 200: performancesResponseSchema, ...errors } } },
    (request) => workingArea.modulePerformances(ctx(request), request.body),
  );
  app.post(
    '/api/product/filtered',
    { schema: { tags, summary: 'Active SKUs search', body: activeSkuSearchSchema, response: { 200: activeSkuSearchResponseSchema, ...errors } } },
    (request) => workingArea.searchActiveSkus(ctx(request), request.body),
  );
  app.post(
    '/api/module/clusterAnalysis',
    { schema: { tags, summary: 'Clusters carrying the page modules, with their current compositions', body: clusterAnalysisRequestSchema, response: { 200: clusterAnalysisResponseSchema, ...errors } } },
    (request) => workingArea.clusterAnalysis(ctx(request), request.body),
  );
  app.post(
    '/api/module/filteredDetailsLego',
    { schema: { tags, summary: 'Newness (LEGO): SKUs flagged new by the product data', body: newnessLegoRequestSchema, response: { 200: newnessResponseSchema, ...errors } } },
    (request) => workingArea.newnessLego(ctx(request), request.body.moduleDtoList, request.body.flagNew),
  );
  app.post(
    '/api/module/filteredDetailsNotLego',
    { schema: { tags, summary: 'Newness (not LEGO): SKUs that entered the module in currentMonthId', body: newnessNotLegoRequestSchema, response: { 200: newnessResponseSchema, ...errors } } },
    (request) => workingArea.newnessNotLego(ctx(request), request.body.moduleDtoList, request.body.currentMonthId),
  );
  app.post(
    '/api/module/publishedProductModule',
    { schema: { tags, summary: 'Modules of a month in which the SKU is published', body: publishedProductRequestSchema, response: { 200: publishedProductResponseSchema, ...errors } } },
    (request) => workingArea.publishedProductModule(ctx(request), request.body),
  );
  app.post(
    '/api/module/extraSellIn',
    { schema: { tags, summary: 'Extra sell-in of a SKU in a module month', body: extraSellInRequestSchema, response: { 200: z.number(), ...errors } } },
    (request) => workingArea.extraSellIn(ctx(request), request.body),
  );
}
