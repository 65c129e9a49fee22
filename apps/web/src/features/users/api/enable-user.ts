import { userStatusResponseSchema } from '@bo/shared/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { USERS_KEY } from './get-users';

/** POST /user/{userId}/enable → { userId, status }. */
export function enableUser(userId: number) {
  return api.post(`/user/${userId}/enable`, undefined, { schema: userStatusResponseSchema });
}

export function useEnableUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: enableUser, onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }) });
}
