import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clusterDtoSchema } from '@bo/shared/clusters';
import {
  clusterCreateListSchema,
  clusterExistsRequestSchema,
  existsAnswerSchema,
  genericNameAnswerSchema,
  genericNameRequestSchema,
  macroFamilyCreateSchema,
  macroFamilySchema,
  moduleCreateSchema,
  moduleExistsRequestSchema,
  storeLookupSchema,
} from '@bo/shared/creation';
import { errorResponseSchema, type ErrorKey } from '@bo/shared/errors';
import { moduleDtoSchema } from '@bo/shared/modules';
import { contextOf } from '../../plugins/context.js';
import { badRequest } from '../../lib/errors.js';
import * as creation from './creation.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema, 422: errorResponseSchema };

/**
 * A body that broke a rule answers 400 with the rules' own texts (the forms' texts), several joined by
 * ';' as the create forms show them one per line, rather than the generic "Invalid request: …".
 */
function rejectInvalidBody(request: FastifyRequest, key: ErrorKey): void {
  const err = request.validationError;
  if (!err) return;
  if (!hasZodFastifySchemaValidationErrors(err)) throw badRequest(err.message, undefined, key);
  const fields = (err.validation as { instancePath?: string; message?: string }[]).map((v) => ({
    path: [err.validationContext, ...String(v.instancePath ?? '').split('/').filter(Boolean)].join('.'),
    message: v.message ?? 'Invalid value',
  }));
  throw badRequest([...new Set(fields.map((f) => f.message))].join(';'), fields, key);
}

/** Creating families, modules and clusters from home, the cluster form's generated name and store lookup. */
export async function creationRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => contextOf(app, request);
  const moduleTags = ['modules', 'creation'];
  const clusterTags = ['clusters', 'creation'];

  app.get(
    '/api/module/macroFamily/all',
    { schema: { tags: moduleTags, summary: 'Every macro family (best sellers and newness first, then alphabetical)', response: { 200: z.array(macroFamilySchema) } } },
    (request) => creation.listMacroFamilies(ctx(request)),
  );
  app.post(
    '/api/module/macroFamily/create',
    {
      attachValidation: true,
      schema: { tags: moduleTags, summary: 'Create a macro family (name required, at most 100 characters)', body: macroFamilyCreateSchema, response: { 200: macroFamilySchema, ...errors } },
    },
    (request) => {
      rejectInvalidBody(request, 'invalidMacroFamily');
      return creation.createMacroFamily(ctx(request), request.body.macroFamily);
    },
  );

  for (const url of ['/api/module/checkIfExists/', '/api/module/checkIfExists']) {
    app.post(
      url,
      {
        attachValidation: true,
        schema: {
          tags: moduleTags,
          summary: "Before creating: { description: 'OK' }, or 409 with the reasons separated by ';'",
          body: moduleExistsRequestSchema,
          response: { 200: existsAnswerSchema, ...errors },
        },
      },
      (request) => {
        rejectInvalidBody(request, 'invalidModule');
        return creation.checkModuleExists(ctx(request), request.body);
      },
    );
  }
  app.post(
    '/api/module/create',
    {
      attachValidation: true,
      schema: {
        tags: moduleTags,
        summary: 'Save a new module (WIP, without SKUs) in an open month; needs the create right for its brand and zones',
        body: moduleCreateSchema,
        response: { 200: moduleDtoSchema, ...errors },
      },
    },
    (request) => {
      rejectInvalidBody(request, 'invalidModule');
      return creation.createModule(ctx(request), request.body);
    },
  );

  for (const url of ['/api/cluster/checkIfExists/', '/api/cluster/checkIfExists']) {
    app.post(
      url,
      {
        attachValidation: true,
        schema: { tags: clusterTags, summary: "Before creating: { description: 'OK' }, or 409 with the reasons", body: clusterExistsRequestSchema, response: { 200: existsAnswerSchema, ...errors } },
      },
      (request) => {
        rejectInvalidBody(request, 'invalidCluster');
        return creation.checkClusterExists(ctx(request), request.body);
      },
    );
  }
  for (const url of ['/api/cluster/massiveCreation/', '/api/cluster/massiveCreation']) {
    app.post(
      url,
      {
        attachValidation: true,
        schema: {
          tags: clusterTags,
          summary: 'Create clusters (stores, LIAs, stars zones …), all or none; answers them as new WIP clusters',
          body: clusterCreateListSchema,
          response: { 200: z.array(clusterDtoSchema), ...errors },
        },
      },
      (request) => {
        rejectInvalidBody(request, 'invalidCluster');
        return creation.createClusters(ctx(request), request.body);
      },
    );
  }
  app.post(
    '/api/cluster/getGenericName',
    {
      attachValidation: true,
      schema: {
        tags: clusterTags,
        summary: 'A free cluster id for the brand, collection, channel and countries (at most 20 characters, no special characters)',
        body: genericNameRequestSchema,
        response: { 200: genericNameAnswerSchema, ...errors },
      },
    },
    (request) => {
      rejectInvalidBody(request, 'invalidGenericName');
      return creation.genericClusterName(ctx(request), request.body);
    },
  );
  app.get(
    '/api/store/bySap/:codiceStoreSap',
    {
      schema: {
        tags: clusterTags,
        summary: 'The store of a SAP code, with its Stars customer, segment and stars zone (404 when none)',
        params: z.object({ codiceStoreSap: z.string().min(1).max(50) }),
        response: { 200: storeLookupSchema, 404: errorResponseSchema },
      },
    },
    (request) => creation.storeBySap(ctx(request), request.params.codiceStoreSap),
  );
}
