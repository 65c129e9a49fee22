import { type User, userSchema } from '@bo/shared/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /user/allCreators: the users a brand can be given to (enabled, with a role, not administrators). */
export function getCreators(): Promise<User[]> {
  return api.get('/user/allCreators', { schema: z.array(userSchema) });
}

export function useCreators() {
  // Under the users' key: a change of a user's status or grants refreshes it too.
  return useQuery(queryOptions({ queryKey: ['users', 'creators'], queryFn: getCreators }));
}
