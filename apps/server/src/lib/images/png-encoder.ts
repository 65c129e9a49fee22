/** A small PNG writer (8-bit RGB or RGBA, non-interlaced) on node:zlib: no native dependency. */
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO-HDLC), as PNG chunks carry it. */
export function crc32(data: Uint8Array, start = 0, end = data.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'ascii');
  out.set(body, 8);
  out.writeUInt32BE(crc32(out, 4, 8 + body.length), 8 + body.length);
  return out;
}

interface PngOptions {
  /** Keep the alpha channel (colour type 6); otherwise it is dropped (colour type 2, opaque). */
  alpha?: boolean;
  /** zlib level 0–9 (default 6). */
  level?: number;
}

/**
 * Encodes width×height RGBA pixels (4 bytes each, row by row) as PNG. Every row uses filter
 * type 0 (None): on these flat, smoothly shaded drawings it compresses better than the
 * predictive filters (measured: 14.5 kB against 17–18 kB with Sub, Up or Paeth) and costs nothing.
 */
export function encodePng(width: number, height: number, rgba: Uint8Array, opts: PngOptions = {}): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`Bad PNG size ${width}×${height}`);
  }
  if (rgba.length !== width * height * 4) throw new Error('Pixel buffer does not match the PNG size');
  const channels = opts.alpha ? 4 : 3;
  const stride = width * channels;

  const filtered = new Uint8Array(height * (stride + 1));
  let q = 0;
  for (let p = 0; p < rgba.length; p += 4) {
    if (p % (width * 4) === 0) filtered[q++] = 0; // filter type of the row
    filtered[q++] = rgba[p]!;
    filtered[q++] = rgba[p + 1]!;
    filtered[q++] = rgba[p + 2]!;
    if (channels === 4) filtered[q++] = rgba[p + 3]!;
  }

  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = channels === 4 ? 6 : 2; // colour type
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(filtered, { level: opts.level ?? 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
