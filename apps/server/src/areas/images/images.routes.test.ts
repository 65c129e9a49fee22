import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetDatabase, testDatabase } from '../../../test/test-database.js';
import { brands, collections, skus } from '../../db/schema.js';
import { registerErrorHandler } from '../../plugins/error-handler.js';
import { imageRoutes } from './images.routes.js';
import { SkuPictures } from '../../lib/images/sku-pictures.js';
import { PngCache } from '../../lib/images/png-cache.js';
import { decodePng } from '../../lib/images/png-test-helpers.js';

let app: FastifyInstance;
let database: Awaited<ReturnType<typeof testDatabase>>;
const UPC = '810001047290';

beforeAll(async () => {
  database = await testDatabase();
  await resetDatabase(database);
  await database.db.insert(brands).values({ brandCode: 'AUR', description: 'Aurora Optics' });
  await database.db.insert(collections).values({ collectionCode: 'SUN', description: 'Sunglasses' });
  await database.db.insert(skus).values({
    upc: UPC,
    skuId: 1,
    model: 'AU4001',
    color: '004/2P',
    colorDescription: 'Gunmetal / Polar Grey',
    size: '55',
    materialCode: '0AU4001',
    skuCode: '0AU4001__004/2P55',
    brandCode: 'AUR',
    collection: 'SUN',
    srp: 200,
    whsprice: 92,
    releaseDate: '2025-07-18',
    insertDate: '2025-05-01',
    gender: 'UNISEX',
    frameMaterial: 'METAL',
    marketingTheme: 'ICONS',
  });
  app = Fastify();
  app.decorate('database', database);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(imageRoutes);
});

afterAll(async () => {
  await app.close();
});

describe('GET /data/images/:upc/:view.png', () => {
  it('serves each of the five views as a cacheable PNG', async () => {
    const bodies = new Set<string>();
    for (const view of [1, 2, 3, 4, 5]) {
      const res = await app.inject({ method: 'GET', url: `/data/images/${UPC}/${view}.png` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('private, max-age=86400, immutable');
      expect(decodePng(res.rawPayload)).toMatchObject({ width: 240, height: 160 });
      bodies.add(res.rawPayload.toString('base64'));
    }
    expect(bodies.size).toBe(5);
  });

  it('draws larger pictures on request', async () => {
    const res = await app.inject({ method: 'GET', url: `/data/images/${UPC}/2.png?width=480` });
    expect(res.statusCode).toBe(200);
    expect(decodePng(res.rawPayload)).toMatchObject({ width: 480, height: 320 });
    const bad = await app.inject({ method: 'GET', url: `/data/images/${UPC}/2.png?width=huge` });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 304 when the browser already has the picture', async () => {
    const first = await app.inject({ method: 'GET', url: `/data/images/${UPC}/1.png` });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await app.inject({ method: 'GET', url: `/data/images/${UPC}/1.png`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('answers 404 for an unknown UPC or view, 400 for a view that is not a number', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/data/images/000000000000/1.png' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'notFound' });
    const noView = await app.inject({ method: 'GET', url: `/data/images/${UPC}/6.png` });
    expect(noView.statusCode).toBe(404);
    expect(noView.json()).toMatchObject({ error: 'notFound' });
    const zero = await app.inject({ method: 'GET', url: `/data/images/${UPC}/0.png` });
    expect(zero.statusCode).toBe(404);
    const bad = await app.inject({ method: 'GET', url: `/data/images/${UPC}/front.png` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'badRequest', fields: [{ path: 'params.view' }] });
  });
});

describe('the drawn-picture cache', () => {
  it('draws a picture once per UPC, view and width, and serves the same bytes again', async () => {
    const cache = new PngCache(10, 1024 * 1024);
    const cached = Fastify();
    cached.decorate('database', database);
    cached.setValidatorCompiler(validatorCompiler);
    cached.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(cached);
    await cached.register(imageRoutes, { pictures: new SkuPictures(cache) });
    try {
      const first = await cached.inject({ method: 'GET', url: `/data/images/${UPC}/1.png?width=120` });
      expect(first.statusCode).toBe(200);
      expect(cache.size).toBe(1);
      const again = await cached.inject({ method: 'GET', url: `/data/images/${UPC}/1.png?width=120` });
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(cache.size).toBe(1);
      const wider = await cached.inject({ method: 'GET', url: `/data/images/${UPC}/1.png?width=480` });
      expect(decodePng(wider.rawPayload).width).toBe(480);
      expect(decodePng(again.rawPayload).width).toBe(120);
      expect(cache.size).toBe(2);
    } finally {
      await cached.close();
    }
  });
});
