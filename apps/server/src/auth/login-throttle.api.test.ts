import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../../test/test-app.js';
import type { Config } from '../config.js';

/**
 * Login throttling against the ways around it that an attack found: a forged X-Forwarded-For, the
 * e-mail alias of an account, and a 429 that did not say when to try again.
 */
let app: FastifyInstance;

async function start(overrides: Partial<Config> = {}) {
  ({ app } = await buildTestApp({
    config: overrides,
    reference: true,
    users: { editor: { email: 'Editor.One@Example.com', grants: { view: { brands: ['AUR'], zones: ['EU'] } } } },
  }));
}
afterEach(async () => {
  await app.close();
});

const login = (username: string, password: string, opts: { ip?: string; forwardedFor?: string } = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/authorization/login',
    payload: { username, password },
    remoteAddress: opts.ip ?? '10.0.0.1',
    headers: opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {},
  });

describe('login throttling', () => {
  it('ignores X-Forwarded-For by default: a forged address does not lift the block on the real one', async () => {
    await start();
    for (let i = 0; i < 5; i++) await login(`nobody${i}`, 'bad', { ip: '10.9.9.9', forwardedFor: `203.0.113.${i}` });
    const res = await login('editor', 'secret', { ip: '10.9.9.9', forwardedFor: '198.51.100.7' });
    expect(res.statusCode).toBe(429);
  });

  it('reads X-Forwarded-For only from the proxies TRUST_PROXY names', async () => {
    await start({ TRUST_PROXY: '10.0.0.5' });
    // Behind the trusted proxy, each forwarded client counts on its own…
    for (let i = 0; i < 5; i++) await login(`nobody${i}`, 'bad', { ip: '10.0.0.5', forwardedFor: '203.0.113.1' });
    expect((await login('editor', 'secret', { ip: '10.0.0.5', forwardedFor: '203.0.113.1' })).statusCode).toBe(429);
    expect((await login('editor', 'secret', { ip: '10.0.0.5', forwardedFor: '203.0.113.2' })).statusCode).toBe(200);
    // …while another sender's header is not believed.
    for (let i = 0; i < 5; i++) await login(`nobody${i}`, 'bad', { ip: '10.0.0.6', forwardedFor: `198.51.100.${i}` });
    expect((await login('editor', 'secret', { ip: '10.0.0.6', forwardedFor: '198.51.100.99' })).statusCode).toBe(429);
  });

  it('counts failures per account, whether the user name or the e-mail was typed', async () => {
    await start();
    const names = ['editor', 'editor.one@example.com', 'EDITOR', 'Editor.One@Example.com', 'editor'];
    for (const [i, name] of names.entries()) expect((await login(name, 'bad', { ip: `10.0.1.${i}` })).statusCode).toBe(401);
    expect((await login('editor.one@example.com', 'secret', { ip: '10.0.2.1' })).statusCode).toBe(429);
    expect((await login('editor', 'secret', { ip: '10.0.2.2' })).statusCode).toBe(429);
  });

  it('tells when to try again: 429 with Retry-After', async () => {
    await start({ LOGIN_MAX_FAILURES: 2 });
    for (let i = 0; i < 3; i++) await login('editor', 'bad', { ip: `10.0.3.${i}` });
    const res = await login('editor', 'secret', { ip: '10.0.4.1' });
    expect(res.statusCode).toBe(429);
    const seconds = Number(res.headers['retry-after']);
    expect(Number.isInteger(seconds) && seconds >= 1).toBe(true);
    expect(res.json()).toEqual({ error: 'tooManyAttempts', message: `Too many failed login attempts. Try again in ${seconds} seconds.` });
  });
});

describe('TRUST_PROXY', () => {
  it('is read as false, true, a hop count or a list of addresses, and refused otherwise', async () => {
    const { parseTrustProxy, loadConfig } = await import('../config.js');
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toBe('127.0.0.1,10.0.0.0/8,::1');
    expect(parseTrustProxy('proxy.example.com')).toBeUndefined();
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    ({ app } = await buildTestApp({}));
  });
});
