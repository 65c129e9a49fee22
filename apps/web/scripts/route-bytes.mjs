// The JavaScript each route needs before it is usable, from the build's manifest (issue 19 "A light
// first load"): `npm run size -w apps/web` after `npm run build`.
//
// For each screen: the entry (index.html's script and the chunks it imports statically) plus the
// route's own chunk and its static imports, counted once, gzipped (level 9, as the precompressed files
// are served). /login is part of the entry (router.tsx). Targets: login ≤ 200 KB, home ≤ 300 KB; the
// script exits 1 when one is exceeded.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const TARGETS = { login: 200, home: 300 };

const gz = new Map();
const gzipKb = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024);
  return gz.get(file);
};

/** The chunk files a manifest key loads before it runs: itself and its static imports, transitively. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entry = closure(entryKey);
const sum = (files) => [...files].filter((f) => f.endsWith('.js')).reduce((total, f) => total + gzipKb(f), 0);

const rows = [{ route: 'login', kb: sum(entry), files: entry.size }];
for (const key of Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && k.includes('/app/routes/'))) {
  const files = closure(key, new Set(entry));
  rows.push({ route: path.basename(key, '.tsx'), kb: sum(files), files: files.size });
}
rows.sort((a, b) => a.kb - b.kb);

console.log(`gzipped JavaScript before each screen is usable (${path.relative(process.cwd(), dist) || '.'}):`);
for (const r of rows) {
  const target = TARGETS[r.route];
  console.log(`  ${r.route.padEnd(24)} ${r.kb.toFixed(1).padStart(7)} KB  ${String(r.files).padStart(3)} files${target ? `  (target ≤ ${target} KB)` : ''}`);
}
const over = rows.filter((r) => TARGETS[r.route] && r.kb > TARGETS[r.route]);
// Read by `npm run bench` (the root's): KB per screen and the targets.
console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'size', kb: Object.fromEntries(rows.map((r) => [r.route, Math.round(r.kb * 10) / 10])), targets: TARGETS })}`);
if (over.length) {
  console.error(`FAIL — ${over.map((r) => `${r.route} ${r.kb.toFixed(1)} KB > ${TARGETS[r.route]} KB`).join('; ')}`);
  process.exitCode = 1;
} else {
  console.log('PASS');
}
