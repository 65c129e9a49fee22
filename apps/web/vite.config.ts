import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080';

/**
 * The build names `public/early-calls.js` by its content (`assets/early-calls-<hash>.js`) in index.html,
 * so that the browser runs it from its cache (the server caches assets/ for ever) instead of asking the
 * server again on every load: that revalidation was ~25 ms at the head of every page's first calls
 * (docs/performance.md "7. Early calls from the cache, the popups' lists when opened").
 * `npm run dev` serves public/ as it is.
 */
function hashedEarlyCalls(): Plugin {
  const source = readFileSync(new URL('./public/early-calls.js', import.meta.url));
  const fileName = `assets/early-calls-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js`;
  let base = '/';
  return {
    name: 'bo-hashed-early-calls',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    buildStart() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const plain = `src="${base}early-calls.js"`;
        if (!html.includes(plain)) throw new Error(`index.html no longer loads ${base}early-calls.js`);
        return html.replace(plain, `src="${base}${fileName}"`);
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Every screen lives under /backoffice/ (contract §2); the API stays at /api and /data.
  base: '/backoffice/',
  plugins: [react(), hashedEarlyCalls()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each route loads (scripts/route-bytes.mjs prints them).
    manifest: true,
    rolldownOptions: {
      output: {
        // React and the router change less often than screens: their own chunk stays cached across
        // releases. Everything else is split by use: each route's chunk (router.tsx loads screens when
        // first visited) and the chunks its imports share with other routes.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 3 }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/data': backend,
    },
  },
});
