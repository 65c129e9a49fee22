import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { registerPublicRoutes } from './auth.js';

/** The API description generated from the route schemas: /api/openapi.json, browsable at /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Assortment Backoffice API', version: '1.0.0', description: 'Backend-for-frontend (/api) and data (/data) calls.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    // Public routes (`config: { public: true }`, see plugins/auth.ts) need no token: `security: []`.
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return input.route.config?.public === true ? { ...out, schema: { ...out.schema, security: [] } } : out;
    },
    hideUntagged: false,
  });
  // The browsable page and its files are public, like the description itself.
  await registerPublicRoutes(app, async (scope) => {
    await scope.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  });
  app.get('/api/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
}
