import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  copyModulesRequestSchema,
  copyModulesResponseSchema,
  familyLockResultSchema,
  macroFamilyKeySchema,
  moduleCheckForPublishAnswerSchema,
  moduleCheckForPublishSchema,
  moduleDtoSchema,
  moduleKeySchema,
  moduleLockResultSchema,
  monthsQuerySchema,
  moduleSaveSchema,
  moduleSaveListSchema,
  moduleSaveListAnswerSchema,
  modulePublishListAnswerSchema,
  publishStartedSchema,
  unlockQuerySchema,
} from '@bo/shared/modules';
import { errorResponseSchema } from '@bo/shared/errors';
import { revertOfQuerySchema } from '@bo/shared/item-versions';
import { compiledAnswers } from '../../plugins/answers.js';
import { contextOf } from '../../plugins/context.js';
import * as lifecycle from './module-lifecycle.service.js';

const keys = z.array(moduleKeySchema).min(1).max(500);
const familyKeys = z.array(macroFamilyKeySchema).min(1).max(100);
const onlyDescription = z.object({ onlyDescription: z.enum(['true', 'false']).optional().transform((v) => v === 'true') });
const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema };
const released = z.array(z.object({ moduleName: z.string(), monthId: z.string(), previousOwner: z.string() }));

/** The module calls of the lifecycle engine (docs/LIFECYCLE.md). */
export async function moduleLifecycleRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['modules'];
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);
  // A module with its SKUs (a save's answer, the details): written by a serializer compiled from the schema, checked in tests (plugins/answers.ts).
  const compiled = compiledAnswers(app);

  app.post('/api/module/lock', { schema: { tags, summary: 'Open modules for editing: take (or renew) their locks', body: keys, response: { 200: z.array(moduleLockResultSchema), ...errors } } }, (request) =>
    lifecycle.lockModules(ctx(request), request.body),
  );
  app.post(
    '/api/module/unlock',
    { schema: { tags, summary: "Release module locks (forced: another user's)", querystring: unlockQuerySchema, body: keys, response: { 200: released, ...errors } } },
    (request) => lifecycle.unlockModules(ctx(request), request.body, request.query.forced),
  );
  app.post('/api/module/macroFamily/lock', { schema: { tags, body: familyKeys, response: { 200: z.array(familyLockResultSchema), ...errors } } }, (request) =>
    lifecycle.lockFamilies(ctx(request), request.body),
  );
  app.post(
    '/api/module/macroFamily/unlock',
    {
      schema: {
        tags,
        querystring: unlockQuerySchema,
        body: familyKeys,
        response: { 200: z.array(z.object({ macroFamily: z.string(), monthId: z.string(), previousOwner: z.string() })), ...errors },
      },
    },
    (request) => lifecycle.unlockFamilies(ctx(request), request.body, request.query.forced),
  );
  app.post('/api/module/details', { serializerCompiler: compiled, schema: { tags, summary: 'Modules by key, with their SKUs', body: keys, response: { 200: z.array(moduleDtoSchema) } } }, (request) =>
    lifecycle.moduleDetails(ctx(request), request.body),
  );
  app.post(
    '/api/module/save',
    {
      serializerCompiler: compiled,
      schema: { tags, summary: 'Save a module (the caller must hold its lock)', querystring: onlyDescription.extend(revertOfQuerySchema.shape), body: moduleSaveSchema, response: { 200: moduleDtoSchema, ...errors } },
    },
    (request) => lifecycle.saveModule(ctx(request), request.body, { onlyDescription: request.query.onlyDescription, revertOf: request.query.revertOf }),
  );
  app.post(
    '/api/module/saveList',
    { schema: { tags, summary: 'Save several modules, all or none: [] on success, else the messages', body: moduleSaveListSchema, response: { 200: moduleSaveListAnswerSchema, ...errors } } },
    (request) => lifecycle.saveModuleList(ctx(request), request.body),
  );
  app.post(
    '/api/module/publish',
    { schema: { tags, summary: 'Publish a WIP module (saving its composition first when given)', body: moduleSaveSchema, response: { 200: publishStartedSchema, ...errors } } },
    (request) => lifecycle.publishModule(ctx(request), request.body),
  );
  app.post(
    '/api/module/checkForPublish',
    {
      schema: {
        tags,
        summary: "The planning system's checks before publishing (SKUs disabled in SAP, no active SKU): the modules that may not be published",
        body: moduleCheckForPublishSchema,
        response: { 200: moduleCheckForPublishAnswerSchema, ...errors },
      },
    },
    (request) => lifecycle.checkModulesForPublish(ctx(request), request.body),
  );
  app.post(
    '/api/module/publishList',
    {
      schema: {
        tags,
        summary: 'Publish several modules, all or none',
        body: moduleSaveListSchema,
        response: { 200: modulePublishListAnswerSchema, ...errors },
      },
    },
    (request) => lifecycle.publishModuleList(ctx(request), request.body),
  );
  app.post(
    '/api/module/copyCompositions',
    { schema: { tags, summary: 'Copy modules to other open months', body: copyModulesRequestSchema, response: { 200: copyModulesResponseSchema, ...errors } } },
    (request) => lifecycle.copyModules(ctx(request), request.body),
  );
  app.get(
    '/api/module/:moduleName/months',
    {
      schema: {
        tags,
        summary: 'Open months a module may be copied to, or (purpose=delete) deleted from',
        params: z.object({ moduleName: z.string().min(1).max(24) }),
        querystring: monthsQuerySchema,
        response: { 200: z.array(z.string()), 404: errorResponseSchema },
      },
    },
    (request) => lifecycle.moduleMonths(ctx(request), request.params.moduleName, request.query.monthId, request.query.purpose),
  );
}
