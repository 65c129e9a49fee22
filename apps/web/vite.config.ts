import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Every screen lives under /backoffice/ (contract §2); the API stays at /api and /data.
  base: '/backoffice/',
  plugins: [react()],
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
