import { type User, userSchema } from '@bo/shared/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { USERS_KEY } from './get-users';

/** GET /user/allNoGrants: users who cannot work yet (no role, or no brand and stars zone). */
export function getUsersWithoutGrants(): Promise<User[]> {
  return api.get('/user/allNoGrants', { schema: z.array(userSchema) });
}

export function usersWithoutGrantsQueryOptions() {
  return queryOptions({ queryKey: [...USERS_KEY, 'no-grants'], queryFn: getUsersWithoutGrants });
}

export function useUsersWithoutGrants() {
  return useQuery(usersWithoutGrantsQueryOptions());
}
