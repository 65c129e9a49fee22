import { userStatusResponseSchema } from '@bo/shared/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { USERS_KEY } from './get-users';

/** POST /user/{userId}/disable → { userId, status }. The user's next call is refused. */
export function disableUser(userId: number) {
  return api.post(`/user/${userId}/disable`, undefined, { schema: userStatusResponseSchema });
}

export function useDisableUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: disableUser, onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }) });
}
