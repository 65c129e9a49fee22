import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of every answer. The built web app loads only its own scripts (no inline
 * script: the Vite build emits none), so `script-src 'self'`. Mantine sets inline `style` attributes
 * and a `<style>` element for its CSS variables, hence `'unsafe-inline'` for styles only. Pictures are
 * our own (`/data/images`), drawn icons come as `data:` and downloads go through `blob:` URLs. No
 * `upgrade-insecure-requests`: the product is served on plain http locally.
 */
const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
} as const;

/** Sent only on answers that travelled over https (browsers ignore it on http anyway). */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * Security headers on every answer (API, errors, 404s, the web app, the API page), set in the first
 * `onRequest` hook so that even a 401 of the auth hook carries them. Helmet's middleware is built once
 * (its headers' values are computed then) and applied to each answer; @fastify/helmet built it anew on
 * every request (parsing the CSP directives each time) behind two async hooks.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const applyHelmet = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // DENY as well as frame-ancestors: older browsers only know the header.
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // HSTS depends on how the request came in, see below.
    strictTransportSecurity: false,
    // Pictures and files are only used by our own pages.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    // request.protocol honours X-Forwarded-Proto only from a proxy TRUST_PROXY trusts.
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    applyHelmet(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
