import { type User, userSchema } from '@bo/shared/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** Every query of Manage Users starts with this key: invalidate it after any user or grant change. */
export const USERS_KEY = ['users'] as const;

/** GET /user/: every user with role, status and grants, sorted by e-mail. */
export function getUsers(): Promise<User[]> {
  return api.get('/user/', { schema: z.array(userSchema) });
}

export function usersQueryOptions() {
  return queryOptions({ queryKey: [...USERS_KEY, 'list'], queryFn: getUsers });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
