// Compiles the server for `npm start` (docs/ARCHITECTURE.md "Build"): src/server.ts (and the entries of its
// background workers, the export worker and the stage worker: lib/worker-host.ts) and everything it
// imports from this repository (packages/shared included) bundled into dist/server.js with esbuild;
// the npm dependencies stay outside (imported from node_modules as they are), and the SQL migrations
// are copied beside the bundle (db/migrate.ts reads them next to itself).
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@bo/'));
const outdir = path.join(root, 'dist');

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
await build({
  // The background workers (lib/worker-host.ts) run code of their own: one entry each, dist/<name>.js, which
  // their clients find beside dist/server.js.
  entryPoints: {
    server: path.join(root, 'src', 'server.ts'),
    'export-worker': path.join(root, 'src', 'areas', 'exports', 'export-worker.ts'),
    'stage-worker': path.join(root, 'src', 'areas', 'uploads', 'release-loader', 'stage-worker.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // A dependency's own subpaths (drizzle-orm/pg-core, exceljs/…) stay external too.
  external: external.flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
});
cpSync(path.join(root, 'src', 'db', 'migrations'), path.join(outdir, 'migrations'), { recursive: true });
console.log(`built dist/server.js in ${((performance.now() - started) / 1000).toFixed(1)} s (${external.length} dependencies left outside)`);
