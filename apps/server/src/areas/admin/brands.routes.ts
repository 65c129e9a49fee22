import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { brandSaveSchema, brandWithUsersSchema } from '@bo/shared/brands';
import { errorResponseSchema } from '@bo/shared/errors';
import { contextOf } from '../../plugins/context.js';
import { requireAdmin } from '../../plugins/auth.js';
import * as brands from './brands.service.js';

/** Manage Brands (spec part 1 §7 "Reference data": allBrandsWithUsers, brand save): admin only. */
export async function brandRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });
  const tags = ['brands'];
  const ctx = (request: Parameters<typeof contextOf>[1]) => contextOf(app, request);

  app.get(
    '/api/brand/allBrandsWithUsers',
    { schema: { tags, summary: 'Brands sorted by code, with the users holding each at view, edit and submit', response: { 200: z.array(brandWithUsersSchema), 403: errorResponseSchema } } },
    (request) => brands.listBrandsWithUsers(ctx(request)),
  );
  app.post(
    '/api/brand/save',
    {
      schema: {
        tags,
        summary: "Set who holds a brand at each level (edit and submit imply view); answers the updated brand",
        body: brandSaveSchema,
        response: { 200: brandWithUsersSchema, 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    (request) => brands.saveBrand(ctx(request), request.body),
  );
}
