/** The token service: signature, expiry and grace, also for a token it has verified before (its cache). */
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService, tokenHash } from './token.js';

const secret = new TextEncoder().encode('a-test-secret-of-enough-length-for-hs256');

afterEach(() => vi.useRealTimers());

describe('token service', () => {
  it('accepts its own token again and again, then refuses it once expired (grace only where asked)', async () => {
    vi.useFakeTimers({ now: new Date('2027-01-01T10:00:00Z'), toFake: ['Date'] });
    const tokens = createTokenService(secret, 1);
    const { token } = await tokens.sign('editor', ['ROLE_EDITOR']);
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ user_name: 'editor', authorities: ['ROLE_EDITOR'] });
    first!.authorities.push('ROLE_ADMIN'); // a caller changing its copy changes nothing remembered
    expect(await tokens.verify(token)).toEqual({ user_name: 'editor', authorities: ['ROLE_EDITOR'], exp: first!.exp });
    vi.setSystemTime(new Date('2027-01-01T10:01:00Z')); // exp = now: expired (jose's rule)
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token, { graceSeconds: 30 })).toMatchObject({ user_name: 'editor' });
    vi.setSystemTime(new Date('2027-01-01T10:01:31Z'));
    expect(await tokens.verify(token, { graceSeconds: 30 })).toBeNull();
  });

  it('signs a token of its own for every login, even two of one user in the same second (a logout ends only its own)', async () => {
    vi.useFakeTimers({ now: new Date('2027-01-01T10:00:00Z'), toFake: ['Date'] });
    const tokens = createTokenService(secret, 5);
    const [a, b] = [(await tokens.sign('editor', [])).token, (await tokens.sign('editor', [])).token];
    expect(a).not.toBe(b);
    expect(await tokens.verify(a)).toMatchObject({ user_name: 'editor' });
    expect(await tokens.verify(b)).toMatchObject({ user_name: 'editor' });
    expect(tokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(a)).not.toBe(tokenHash(b));
  });

  it('refuses a token signed with another secret or altered, even next to a remembered one', async () => {
    const tokens = createTokenService(secret, 5);
    const { token } = await tokens.sign('editor', []);
    expect(await tokens.verify(token)).not.toBeNull();
    const forged = await new SignJWT({ user_name: 'admin', authorities: ['ROLE_ADMIN'] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    expect(await tokens.verify(forged)).toBeNull();
    const [h, , s] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ user_name: 'admin', authorities: ['ROLE_ADMIN'], exp: 4_102_444_800 })).toString('base64url');
    expect(await tokens.verify(`${h}.${payload}.${s}`)).toBeNull();
    expect(await tokens.verify(`${token}x`)).toBeNull();
  });
});
