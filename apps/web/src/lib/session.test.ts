import { describe, expect, it } from 'vitest';
import { decodeTokenPayload, isStoredSessionFresh, SESSION_MAX_AGE_MS, tokenExpiresAt } from './session';

function fakeJwt(payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

describe('token helpers', () => {
  it('reads the payload and the expiry of a JWT', () => {
    const token = fakeJwt({ user_name: 'admin', authorities: ['ADMIN'], exp: 1_900_000_000 });
    expect(decodeTokenPayload(token)).toMatchObject({ user_name: 'admin' });
    expect(tokenExpiresAt(token)).toBe(1_900_000_000_000);
  });

  it('handles base64url characters and non-ASCII names', () => {
    const token = fakeJwt({ user_name: 'Nicolò ~?>>', exp: 1 });
    expect(decodeTokenPayload(token)?.user_name).toBe('Nicolò ~?>>');
  });

  it('gives null for tokens it cannot read', () => {
    expect(decodeTokenPayload('garbage')).toBeNull();
    expect(decodeTokenPayload('a.%%%.c')).toBeNull();
    expect(tokenExpiresAt(fakeJwt({ user_name: 'x' }))).toBeNull();
  });
});

describe('isStoredSessionFresh', () => {
  const now = Date.UTC(2026, 10, 21, 12);
  it('accepts sessions saved less than 6 hours ago', () => {
    expect(isStoredSessionFresh(now, now)).toBe(true);
    expect(isStoredSessionFresh(now - SESSION_MAX_AGE_MS + 1000, now)).toBe(true);
  });
  it('rejects older, future or missing timestamps', () => {
    expect(isStoredSessionFresh(now - SESSION_MAX_AGE_MS, now)).toBe(false);
    expect(isStoredSessionFresh(now + 60_000, now)).toBe(false);
    expect(isStoredSessionFresh(undefined, now)).toBe(false);
    expect(isStoredSessionFresh('yesterday', now)).toBe(false);
  });
});
