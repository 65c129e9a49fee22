import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const BASE_PATH = '/backoffice/';

/**
 * Serves the built web app under /backoffice/ and answers every other /backoffice/* path with its
 * index.html, so the browser's router takes over (unknown routes then go to the login page).
 */
export async function registerStaticWeb(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, { root: distDir, prefix: BASE_PATH, wildcard: false, index: false, cacheControl: false });
  } else {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` to serve /backoffice/');
  }

  app.get('/', (_request, reply) => reply.redirect(BASE_PATH));

  const sendIndex = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    if (!built) return reply.status(503).type('text/plain').send('The web app is not built. Run `npm run build`.');
    // index.html must never be cached: it names the hashed bundles of the current build.
    return reply.header('Cache-Control', 'no-cache').type('text/html').send(await fs.promises.readFile(indexFile));
  };
  app.get('/backoffice', (_request, reply) => reply.redirect(BASE_PATH));
  app.get(BASE_PATH, sendIndex);
  app.get(`${BASE_PATH}*`, async (request, reply) => {
    const rel = decodeURIComponent((request.params as { '*': string })['*'] ?? '');
    if (built && rel.startsWith('assets/')) {
      const file = path.join(distDir, rel);
      if (file.startsWith(distDir) && fs.existsSync(file)) {
        return reply.header('Cache-Control', 'public, max-age=31536000, immutable').sendFile(rel);
      }
      return reply.status(404).send({ error: 'notFound', message: 'No such file' });
    }
    if (built && /\.[a-z0-9]+$/i.test(rel)) {
      const file = path.join(distDir, rel);
      if (file.startsWith(distDir) && fs.existsSync(file)) return reply.sendFile(rel);
    }
    return sendIndex(request, reply);
  });
}
