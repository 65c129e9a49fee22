import { describe, expect, it } from 'vitest';
import { crc32, encodePng } from './png-encoder.js';
import { decodePng } from './png-test-helpers.js';

describe('PNG encoder', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });

  it('writes pixels that decode back exactly, as RGB or RGBA', () => {
    const width = 7;
    const height = 5;
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37) % 256;
    const rgb = decodePng(encodePng(width, height, rgba));
    expect(rgb).toMatchObject({ width, height, colourType: 2, chunkTypes: ['IHDR', 'IDAT', 'IEND'] });
    expect(Array.from(rgb.pixels)).toEqual(Array.from(rgba).filter((_, i) => i % 4 !== 3));
    const withAlpha = decodePng(encodePng(width, height, rgba, { alpha: true }));
    expect(withAlpha.colourType).toBe(6);
    expect(Array.from(withAlpha.pixels)).toEqual(Array.from(rgba));
  });

  it('refuses a pixel buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(15))).toThrow();
    expect(() => encodePng(0, 2, new Uint8Array(0))).toThrow();
  });
});
