import type { FastifyInstance } from 'fastify';

const NO_STORE = 'no-store';

/**
 * `Cache-Control: no-store` on every answer of the API and of /data, errors included: login and
 * GET /api/authorization/session answer the token, the rest is the users' data, and none of it may be kept by a
 * browser's or a proxy's cache (a shared computer's back button, a disk cache). Set in the first `onRequest`
 * hook, so that the 401 of the auth hook and the 503 of a draining server carry it too; a route with a reason
 * to be kept says so itself, later, and its header replaces this one (the SKU pictures: private, for a day).
 *
 * Decided on the route the router matched (its pattern), like the auth hook, not on the raw URL: a 404 (no
 * route) gets it too. The web app's routes (`/`, `/backoffice/*`) are left to static-web.ts: hashed assets for a
 * year, index.html revalidated. A callback hook: it waits on nothing (docs/performance.md, "the request hooks").
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route === undefined || route.startsWith('/api/') || route.startsWith('/data/')) reply.header('cache-control', NO_STORE);
    done();
  });
}
