import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/test-app.js';
import { IMMUTABLE } from './static-web.js';

// A fake build: index.html, one hashed bundle with its .br and .gz copies, one small asset without
// copies, and a secret file beside (outside) the dist folder that no URL may reach.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-static-web-'));
const dist = path.join(tmp, 'dist');
const BUNDLE = 'assets/index-Ab12_cD-.js';
const SMALL = 'assets/tiny-Zz9.css';
const bundle = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;
const INDEX = `<!doctype html><html><head><script type="module" src="/backoffice/${BUNDLE}"></script></head><body><div id="root"></div></body></html>`;
const SECRET = 'top secret outside dist';

let app: FastifyInstance;

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dist, BUNDLE), bundle);
  fs.writeFileSync(path.join(dist, `${BUNDLE}.br`), zlib.brotliCompressSync(bundle));
  fs.writeFileSync(path.join(dist, `${BUNDLE}.gz`), zlib.gzipSync(bundle));
  fs.writeFileSync(path.join(dist, SMALL), 'body{margin:0}');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(tmp, 'package.json'), SECRET);
  // TRUST_PROXY: the https tests say so through X-Forwarded-Proto, as a proxy in front would.
  ({ app } = await buildTestApp({ config: { WEB_DIST_DIR: dist, TRUST_PROXY: true } }));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('hashed assets', () => {
  it('are cached for a year, immutable, without a token', async () => {
    const res = await get(`/backoffice/${BUNDLE}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
  });

  it('are sent brotli-compressed when the browser accepts br', async () => {
    const res = await get(`/backoffice/${BUNDLE}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(bundle);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  it('are sent gzip-compressed when only gzip is accepted', async () => {
    const res = await get(`/backoffice/${BUNDLE}`, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(bundle);
    // br refused explicitly: gzip again.
    const noBr = await get(`/backoffice/${BUNDLE}`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(noBr.headers['content-encoding']).toBe('gzip');
  });

  it('are sent as they are otherwise', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'zstd' }] as Record<string, string>[]) {
      const res = await get(`/backoffice/${BUNDLE}`, headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(bundle);
    }
    // A file without compressed copies is sent as it is, whatever the browser accepts.
    const small = await get(`/backoffice/${SMALL}`, { 'accept-encoding': 'br, gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('body{margin:0}');
    expect(small.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('answer HEAD with the same headers', async () => {
    const res = await app.inject({ method: 'HEAD', url: `/backoffice/${BUNDLE}`, headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('answer an unknown asset with 404 JSON', async () => {
    const res = await get('/backoffice/assets/nothing-123.js', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'notFound', message: 'No such file' });
  });
});

describe('index.html', () => {
  it('is revalidated on every load, on / and on any screen route', async () => {
    for (const url of ['/backoffice/', '/backoffice/login', '/backoffice/module?moduleName=A&monthId=M03_2027', '/backoffice/no/such/screen']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toBe(INDEX);
    }
    expect((await get('/')).headers.location).toBe('/backoffice/');
    expect((await get('/backoffice')).headers.location).toBe('/backoffice/');
  });

  it('files of public/ are served but revalidated', async () => {
    const res = await get('/backoffice/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('path traversal', () => {
  const attempts = [
    '/backoffice/assets/..%2f..%2fpackage.json',
    '/backoffice/assets/..%2F..%2Fsecret.txt',
    '/backoffice/assets/%2e%2e/%2e%2e/secret.txt',
    '/backoffice/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/backoffice/assets/..%252f..%252fsecret.txt',
    '/backoffice/assets/%252e%252e/%252e%252e/secret.txt',
    '/backoffice/assets/..%5c..%5csecret.txt',
    '/backoffice/assets/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.txt',
    // (inject resolves literal dot segments as a browser would; curl --path-as-is sends them: also 400)
    '/backoffice/assets/../../secret.txt',
    '/backoffice/..%2fsecret.txt',
    '/backoffice/..%2f..%2fpackage.json',
    '/backoffice/%2e%2e/package.json',
    `/backoffice/${BUNDLE}%00.png`,
    '/backoffice/assets/%00',
    '/backoffice/%00',
    '/backoffice/assets/%',
    '/backoffice/assets/%zz.js',
    '/backoffice/assets//index-Ab12_cD-.js',
    `/backoffice/${BUNDLE}/.`,
  ];

  it.each(attempts)('%s answers 4xx and never a file outside dist', async (url) => {
    for (const headers of [{}, { 'accept-encoding': 'br, gzip' }] as Record<string, string>[]) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      if (process.env.SHOW_STATUS) console.log(url, res.statusCode, res.body);
      expect(res.body).not.toContain(SECRET);
      expect(res.headers['content-type']).toMatch(/application\/json/);
    }
  });
});

describe('security headers', () => {
  const expectHeaders = (headers: Record<string, unknown>) => {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['x-powered-by']).toBeUndefined();
  };

  it('are on an API answer, an error answer, the index page, an asset and an unknown route', async () => {
    const answers = {
      api: await get('/api/health'),
      unauthorized: await get('/api/brand/all'),
      badToken: await get('/api/brand/all', { authorization: 'Bearer nope' }),
      badRequest: await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: '' } }),
      index: await get('/backoffice/'),
      asset: await get(`/backoffice/${BUNDLE}`, { 'accept-encoding': 'br' }),
      notFound: await get('/backoffice/assets/nothing.js'),
      traversal: await get('/backoffice/assets/..%2f..%2fsecret.txt'),
    };
    expect(answers.api.statusCode).toBe(200);
    expect(answers.unauthorized.statusCode).toBe(401);
    expect(answers.badToken.statusCode).toBe(401);
    expect(answers.badRequest.statusCode).toBe(400);
    expect(answers.index.statusCode).toBe(200);
    for (const [name, res] of Object.entries(answers)) {
      try {
        expectHeaders(res.headers);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`);
      }
    }
  });

  it('sends HSTS only over https', async () => {
    expect((await get('/api/health')).headers['strict-transport-security']).toBeUndefined();
    expect((await get('/backoffice/')).headers['strict-transport-security']).toBeUndefined();
    const https = await get('/api/health', { 'x-forwarded-proto': 'https' });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('leave the API page and its files reachable', async () => {
    const page = await get('/api/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBeDefined();
    // The page loads only its own files: no inline script for the CSP to block.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect((await get('/api/docs/static/swagger-initializer.js')).statusCode).toBe(200);
    expect((await get('/api/docs/json')).statusCode).toBe(200);
  });
});
