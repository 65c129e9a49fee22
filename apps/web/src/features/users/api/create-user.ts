import { type CreateUserRequest, type CreateUserResponse, createUserResponseSchema, USER_TEXTS } from '@bo/shared/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { USERS_KEY } from './get-users';

/** POST /user/insertCreator: a new user by e-mail (lowercased), optionally with a country. */
export function createUser(body: CreateUserRequest): Promise<CreateUserResponse> {
  return api.post('/user/insertCreator', { ...body, email: body.email.trim().toLowerCase() }, { schema: createUserResponseSchema, alertOnError: false });
}

export interface CreateUserOutcome {
  kind: 'success' | 'error' | 'warning';
  message: string;
}

/**
 * The flash message of a creation (part 1 §8): success 'The user has been added'; not on the
 * provider's list → that text; already present → a warning. Anything else (network, server failure)
 * is reported as an error with its own message rather than guessed.
 */
export function createUserOutcome(result: { ok: true } | { ok: false; error: unknown }): CreateUserOutcome {
  if (result.ok) return { kind: 'success', message: USER_TEXTS.added };
  const { error } = result;
  if (isApiError(error) && error.key === 'notOnProviderList') return { kind: 'error', message: USER_TEXTS.notOnProviderList };
  if (isApiError(error) && (error.status === 409 || error.key === 'userAlreadyPresent')) return { kind: 'warning', message: USER_TEXTS.alreadyPresent };
  return { kind: 'error', message: error instanceof Error ? error.message : 'Request failed' };
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  });
}
