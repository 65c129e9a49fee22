import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../db/client.js';
import { settingOrCreate } from './server-settings.repository.js';
import type { TokenPayload } from '@bo/shared/auth';

const SECRET_KEY = 'jwt_secret';

/**
 * The token-signing secret: JWT_SECRET when set; otherwise one generated on first start and kept in the
 * database, so restarts and every server process on the same database accept the same tokens.
 */
export async function resolveSigningSecret(db: Db, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  return new TextEncoder().encode(await settingOrCreate(db, SECRET_KEY, () => crypto.randomBytes(48).toString('base64url')));
}

/**
 * What names a token in `revoked_tokens`: the SHA-256 of the whole token, hex. The token itself is not stored, and
 * tokens signed before `jti` was added are covered as well as new ones.
 */
export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export interface TokenService {
  sign(username: string, authorities: string[]): Promise<{ token: string; expiresIn: number }>;
  /**
   * The payload of a token signed here and not expired; `graceSeconds` also accepts one that expired at
   * most that long ago (logout only: the browser's expiry timer ends the session at the token's expiry).
   */
  verify(token: string, options?: { graceSeconds?: number }): Promise<TokenPayload | null>;
}

/** Verified tokens remembered per process (a few hundred bytes each). */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenService(secret: Uint8Array, ttlMinutes: number): TokenService {
  // The HMAC key imported once: jose imports a raw secret again on every call (every request verifies a token).
  let verifyKey: Promise<crypto.webcrypto.CryptoKey> | undefined;
  /** Tokens whose signature was verified, oldest first (the session check still reads the user on every request). */
  const verified = new Map<string, TokenPayload>();
  const key = () => (verifyKey ??= crypto.webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']));
  return {
    async sign(username, authorities) {
      const expiresIn = Math.round(ttlMinutes * 60);
      const token = await new SignJWT({ user_name: username, authorities })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        // A random id: two logins of one user in the same second get two tokens, so a logout ends only its own.
        .setJti(crypto.randomBytes(16).toString('base64url'))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
        .sign(secret);
      return { token, expiresIn };
    },
    async verify(token, options) {
      const grace = options?.graceSeconds ?? 0;
      // A token whose signature was checked here before: only its expiry can have changed (jose's rule: expired
      // when exp <= now - tolerance). Saves a WebCrypto round trip through the thread pool on every request.
      const known = verified.get(token);
      if (known) return known.exp > Math.floor(Date.now() / 1000) - grace ? { ...known, authorities: [...known.authorities] } : null;
      try {
        const { payload } = await jwtVerify(token, await key(), { algorithms: ['HS256'], clockTolerance: grace });
        if (typeof payload.user_name !== 'string' || typeof payload.exp !== 'number') return null;
        const authorities = Array.isArray(payload.authorities) ? payload.authorities.map(String) : [];
        const result = { user_name: payload.user_name, authorities, exp: payload.exp };
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
        verified.set(token, { ...result, authorities: [...authorities] });
        return result;
      } catch {
        return null;
      }
    },
  };
}
