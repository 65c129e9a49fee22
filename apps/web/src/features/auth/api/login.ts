import { type LoginRequest, type LoginResponse, loginResponseSchema, type UserInfo } from '@bo/shared/auth';
import { ERROR_TEXTS } from '@bo/shared/errors';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { endServerSession, startSession } from '@/lib/session';
import { getUser } from './get-user';

/** POST /authorization/login → { access_token, token_type, expires_in }. */
export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return api.post('/authorization/login', credentials, {
    schema: loginResponseSchema,
    token: null,
    alertOnError: false,
  });
}

/** Logs in, reads the user with the new token, then starts the session. */
export async function loginAndStartSession(credentials: LoginRequest): Promise<UserInfo> {
  const { access_token: token, expires_in: expiresIn } = await login(credentials);
  let user: UserInfo;
  try {
    user = await getUser({ token, alertOnError: false });
  } catch (error) {
    // The login answer has set the session cookie: no session starts, so it goes again.
    endServerSession(token);
    throw error;
  }
  startSession(token, user, expiresIn);
  return user;
}

/** The text the login page shows for a failure: the server's message, else the spec's default. */
export function loginErrorMessage(error: unknown): string {
  if (isApiError(error) && error.key !== 'httpError' && error.message) return error.message;
  return ERROR_TEXTS.credentialsInvalid;
}

export function useLogin(options: { onSuccess?: (user: UserInfo) => void } = {}) {
  return useMutation({ mutationFn: loginAndStartSession, onSuccess: options.onSuccess });
}
