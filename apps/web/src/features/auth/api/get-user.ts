import { type UserInfo, userInfoResponseSchema } from '@bo/shared/auth';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /authorization/user: who the token belongs to, with the grants (`obj.roles`). */
export async function getUser(options: { token?: string | null; alertOnError?: boolean } = {}): Promise<UserInfo> {
  const answer = await api.get('/authorization/user', { schema: userInfoResponseSchema, ...options });
  return answer.obj;
}

export function userQueryOptions() {
  return queryOptions({ queryKey: ['authorization', 'user'], queryFn: () => getUser() });
}

