/** Reads a PNG the way a strict decoder would, for the tests: chunks, CRCs, header, pixels. */
import { inflateSync } from 'node:zlib';
import { crc32 } from './png-encoder.js';

interface DecodedPng {
  width: number;
  height: number;
  colourType: number;
  chunkTypes: string[];
  /** Unfiltered pixel bytes, row by row (3 or 4 per pixel). */
  pixels: Uint8Array;
}

export function decodePng(png: Buffer): DecodedPng {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => png[i] === b)) throw new Error('bad signature');
  const chunkTypes: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  let colourType = -1;
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    if (crc32(png, offset + 4, offset + 8 + length) !== crc) throw new Error(`bad CRC in ${type}`);
    chunkTypes.push(type);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[10] !== 0 || body[11] !== 0 || body[12] !== 0) throw new Error('unexpected IHDR');
      colourType = body[9]!;
    }
    if (type === 'IDAT') idat.push(body);
    offset += 12 + length;
  }
  if (offset !== png.length) throw new Error('trailing bytes');
  const bpp = colourType === 6 ? 4 : 3;
  const stride = width * bpp;
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== height * (stride + 1)) throw new Error(`IDAT holds ${raw.length} bytes, expected ${height * (stride + 1)}`);
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= bpp ? pixels[y * stride + i - bpp]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
      const c = i >= bpp && y > 0 ? pixels[(y - 1) * stride + i - bpp]! : 0;
      let p = 0;
      if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const e = a + b - c;
        const pa = Math.abs(e - a);
        const pb = Math.abs(e - b);
        const pc = Math.abs(e - c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad filter ${filter}`);
      pixels[y * stride + i] = (x + p) & 0xff;
    }
  }
  return { width, height, colourType, chunkTypes, pixels };
}
