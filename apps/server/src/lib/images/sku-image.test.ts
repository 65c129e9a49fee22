import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodePng } from './png-test-helpers.js';
import { imageStyleFor, renderSkuImage, SKU_IMAGE_VIEWS } from './sku-image.js';

const sku = { upc: '810001047290', model: 'AU4001', color: '004/2P', releaseDate: '2021-05-03' };
const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('SKU pictures', () => {
  it('are valid 240×160 PNGs by default, with a drawing on the background', () => {
    for (const view of SKU_IMAGE_VIEWS) {
      const png = decodePng(renderSkuImage({ ...sku, view }));
      expect(png).toMatchObject({ width: 240, height: 160, colourType: 2, chunkTypes: ['IHDR', 'IDAT', 'IEND'] });
      const colours = new Set<string>();
      for (let i = 0; i < png.pixels.length; i += 3) colours.add(`${png.pixels[i]},${png.pixels[i + 1]},${png.pixels[i + 2]}`);
      expect(colours.size).toBeGreaterThan(100);
    }
  });

  it('take their size from the width (height two thirds of it)', () => {
    expect(decodePng(renderSkuImage({ ...sku, view: 1, width: 480 }))).toMatchObject({ width: 480, height: 320 });
    expect(() => renderSkuImage({ ...sku, view: 1, width: 10 })).toThrow(RangeError);
    expect(() => renderSkuImage({ ...sku, view: 6 })).toThrow(RangeError);
  });

  it('are the same bytes for the same SKU and view', () => {
    for (const view of SKU_IMAGE_VIEWS) {
      expect(digest(renderSkuImage({ ...sku, view }))).toBe(digest(renderSkuImage({ ...sku, view })));
    }
  });

  it('differ between the five views', () => {
    const hashes = SKU_IMAGE_VIEWS.map((view) => digest(renderSkuImage({ ...sku, view })));
    expect(new Set(hashes).size).toBe(5);
  });

  it('are a different set for SKUs released from 2023 on', () => {
    expect(imageStyleFor('2022-12-31')).toBe('classic');
    expect(imageStyleFor('2023-01-01')).toBe('studio');
    expect(imageStyleFor(new Date('2024-06-01T00:00:00Z'))).toBe('studio');
    for (const view of SKU_IMAGE_VIEWS) {
      const before = decodePng(renderSkuImage({ ...sku, releaseDate: '2022-12-31', view }));
      const after = decodePng(renderSkuImage({ ...sku, releaseDate: '2023-01-01', view }));
      // Visibly distinct, not a few pixels: most of the picture changes.
      let changed = 0;
      for (let i = 0; i < before.pixels.length; i += 3) {
        const d = Math.abs(before.pixels[i]! - after.pixels[i]!) + Math.abs(before.pixels[i + 1]! - after.pixels[i + 1]!) + Math.abs(before.pixels[i + 2]! - after.pixels[i + 2]!);
        if (d > 30) changed++;
      }
      expect(changed / (before.width * before.height)).toBeGreaterThan(0.5);
    }
  });

  it('differ between models and colours', () => {
    const base = digest(renderSkuImage({ ...sku, view: 1 }));
    expect(digest(renderSkuImage({ ...sku, model: 'AU4002', view: 1 }))).not.toBe(base);
    expect(digest(renderSkuImage({ ...sku, color: '601/71', view: 1 }))).not.toBe(base);
    // Unknown codes still draw.
    expect(decodePng(renderSkuImage({ ...sku, color: 'ZZZ/QQ', model: '', view: 3 })).width).toBe(240);
  });
});
