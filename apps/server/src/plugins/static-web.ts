import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerPublicRoutes } from './auth.js';

const BASE_PATH = '/backoffice/';

/** Vite names built files `assets/<name>-<hash>.<ext>`: a new build gives a new name, so cache for ever. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A path of the built app: plain file and folder names only (no `..`, `.`, empty segments, `\`, `%`, NUL). */
const SAFE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

const badPath = (reply: FastifyReply) => reply.status(400).send({ error: 'badRequest', message: 'Invalid path' });
const noFile = (reply: FastifyReply) => reply.status(404).send({ error: 'notFound', message: 'No such file' });

/**
 * Serves the built web app under /backoffice/ and answers every other /backoffice/* path with its
 * index.html, so the browser's router takes over (unknown routes then go to the login page).
 *
 * Hashed files under assets/ are cached for a year; index.html is revalidated on every load. The build
 * writes `.br` and `.gz` copies beside the larger files (apps/web/scripts/precompress.mjs); @fastify/static's
 * `preCompressed` picks the best one the request's Accept-Encoding allows (also for `reply.sendFile`),
 * and answers `Vary: Accept-Encoding`. Every route here is public (the web app's files carry no data).
 */
export async function registerStaticWeb(app: FastifyInstance, distDir: string): Promise<void> {
  await registerPublicRoutes(app, (scope) => staticWeb(scope, distDir));
}

async function staticWeb(app: FastifyInstance, distDir: string): Promise<void> {
  const root = path.resolve(distDir);
  const built = fs.existsSync(path.join(root, 'index.html'));
  if (built) {
    // serve: false: only reply.sendFile; the routes below decide what may be read.
    await app.register(fastifyStatic, { root, serve: false, preCompressed: true, cacheControl: false, index: false });
  } else {
    app.log.warn({ distDir: root }, 'web app not built: run `npm run build` to serve /backoffice/');
  }

  /** A regular file of the build at a checked relative path, or null. */
  const isBuiltFile = async (rel: string): Promise<boolean> => {
    const file = path.join(root, rel);
    if (path.relative(root, file).startsWith('..')) return false;
    try {
      return (await fs.promises.stat(file)).isFile();
    } catch {
      return false;
    }
  };

  const sendIndex = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (!built) return reply.status(503).type('text/plain').send('The web app is not built. Run `npm run build`.');
    // index.html must never be used unchecked from a cache: it names the hashed bundles of the current build.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  };

  app.get('/', (_request, reply) => reply.redirect(BASE_PATH));
  app.get('/backoffice', (_request, reply) => reply.redirect(BASE_PATH));
  app.get(BASE_PATH, sendIndex);
  app.get(`${BASE_PATH}*`, async (request, reply) => {
    // The router has already decoded the path once; it is never decoded again, so `%252e%252e` stays
    // text and is refused below like every other non-plain name.
    const rel = (request.params as { '*'?: string })['*'] ?? '';
    const isAsset = rel.startsWith('assets/');
    const looksLikeFile = /\.[a-z0-9]+$/i.test(rel);
    if (!SAFE_PATH.test(rel)) {
      // Screen routes are plain names; anything else that targets a file is refused outright.
      if (isAsset || looksLikeFile || /[\0\\%]|(^|\/)\.{1,2}(\/|$)/.test(rel)) return badPath(reply);
      return sendIndex(request, reply);
    }
    if (built && isAsset) {
      if (!(await isBuiltFile(rel))) return noFile(reply);
      return reply.header('Cache-Control', IMMUTABLE).sendFile(rel);
    }
    if (built && looksLikeFile && (await isBuiltFile(rel))) {
      // Files of public/ (favicon.svg) keep their names across builds: revalidate them.
      return reply.header('Cache-Control', 'no-cache').sendFile(rel);
    }
    return sendIndex(request, reply);
  });
}
