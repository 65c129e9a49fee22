import { z } from 'zod';
import { grantSchema } from './grants.js';

export const loginRequestSchema = z.object({
  username: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(200),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/**
 * GET /authorization/session: the token the request was authenticated with (the HttpOnly `bo_token`
 * cookie after a reload), in the login answer's shape; `expires_in` is the seconds it has left.
 */
export const sessionResponseSchema = loginResponseSchema;
export type SessionResponse = LoginResponse;

/** POST /authorization/logout answers 204 without a body (and clears the cookie). */
export const logoutResponseSchema = z.null().describe('No content: the session cookie is cleared');

const userInfoSchema = z.object({
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles: z.array(grantSchema),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const userInfoResponseSchema = z.object({ obj: userInfoSchema });
export const grantsResponseSchema = z.object({ obj: z.object({ roles: z.array(grantSchema) }) });

/** Payload of the signed session token (spec: authorities, exp, user_name). */
export const tokenPayloadSchema = z.object({
  user_name: z.string(),
  authorities: z.array(z.string()),
  exp: z.number(),
});
export type TokenPayload = z.infer<typeof tokenPayloadSchema>;
