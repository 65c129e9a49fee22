// Writes `<file>.br` and `<file>.gz` beside every text file of the build (js, css, svg, html, json, …)
// larger than MIN_BYTES, so the server sends them as they are instead of compressing on each request
// (apps/server/src/plugins/static-web.ts). A copy that would not save at least 5% is not written.
// Run after `vite build`: `node scripts/precompress.mjs [dist]`.
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const MIN_BYTES = 1024;
const EXTENSIONS = new Set(['.js', '.mjs', '.css', '.svg', '.html', '.json', '.map', '.txt', '.webmanifest']);
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const dist = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

const encoders = [
  ['.br', (data) => brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } })],
  ['.gz', (data) => gzip(data, { level: 9 })],
];

let count = 0;
let raw = 0;
const saved = { '.br': 0, '.gz': 0 };
for await (const file of files(dist)) {
  if (!EXTENSIONS.has(path.extname(file))) continue;
  const { size } = await stat(file);
  if (size < MIN_BYTES) continue;
  const data = await readFile(file);
  count += 1;
  raw += size;
  for (const [ext, encode] of encoders) {
    const packed = await encode(data);
    if (packed.length <= size * 0.95) {
      await writeFile(file + ext, packed);
      saved[ext] += packed.length;
    } else {
      await rm(file + ext, { force: true });
      saved[ext] += size;
    }
  }
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`precompressed ${count} files in ${path.relative(process.cwd(), dist) || '.'}: ${kb(raw)} → br ${kb(saved['.br'])}, gzip ${kb(saved['.gz'])}`);
