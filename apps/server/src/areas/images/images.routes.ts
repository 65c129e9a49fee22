import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import { getSkuForImage } from './images.repository.js';
import { DEFAULT_IMAGE_WIDTH, isSkuImageView, MAX_IMAGE_WIDTH, MIN_IMAGE_WIDTH } from '../../lib/images/sku-image.js';
import { pictureKey, SkuPictures } from '../../lib/images/sku-pictures.js';

const paramsSchema = z.object({
  upc: z.string().min(1).max(40),
  view: z.string().regex(/^\d{1,3}$/, 'The view is a number from 1 to 5'),
});
const querySchema = z.object({
  width: z.coerce.number().int().min(MIN_IMAGE_WIDTH).max(MAX_IMAGE_WIDTH).optional(),
});

/**
 * GET /data/images/:upc/:view.png — the SKU's picture for view 1 (front), 2 (three-quarter),
 * 3 (side), 4 (top) or 5 (folded), drawn on demand, 240×160 unless ?width= asks otherwise.
 * A UPC's pictures never change, so browsers keep them for a day without asking again, and the
 * server keeps the last few thousand it drew in a bounded LRU (png-cache.ts).
 */
export async function imageRoutes(instance: FastifyInstance, options: { pictures?: SkuPictures } = {}): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // Drawn pictures by everything the drawing depends on (also the ETag): a page of tiles is drawn once.
  const pictures = options.pictures ?? new SkuPictures();
  app.get(
    '/data/images/:upc/:view.png',
    {
      schema: {
        tags: ['images'],
        summary: 'A SKU picture (PNG): views 1 front, 2 three-quarter, 3 side, 4 top, 5 folded',
        params: paramsSchema,
        querystring: querySchema,
      },
    },
    async (request, reply) => {
      const { upc } = request.params;
      const view = Number(request.params.view);
      const width = request.query.width ?? DEFAULT_IMAGE_WIDTH;
      if (!isSkuImageView(view)) throw notFound(`There is no view ${view}: the views are 1 to 5`);
      const sku = await getSkuForImage(app.database.db, upc);
      if (!sku) throw notFound(`There is no SKU with UPC ${upc}`);

      const drawing = { upc: sku.upc, model: sku.model, color: sku.color, releaseDate: sku.releaseDate, view, width };
      const etag = `"${pictureKey(drawing)}"`;
      reply.header('Cache-Control', 'private, max-age=86400, immutable').header('ETag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('image/png').send(pictures.draw(drawing));
    },
  );
}
