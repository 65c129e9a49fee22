import { type SessionResponse, sessionResponseSchema } from '@bo/shared/auth';
import { api } from '@/lib/api-client';

/**
 * GET /authorization/session → { access_token, token_type, expires_in }: the token of the HttpOnly
 * session cookie (sent with no Authorization header, so the cookie is what authenticates it).
 */
export function getCurrentSession(): Promise<SessionResponse> {
  return api.get('/authorization/session', { schema: sessionResponseSchema, token: null, alertOnError: false });
}
