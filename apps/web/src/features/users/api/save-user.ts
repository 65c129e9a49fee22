import { type UserGrant, type UserSave, userSaveResponseSchema } from '@bo/shared/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { USERS_KEY } from './get-users';

/** POST /user/save: the user's role and grants; answers the grants as stored. */
export function saveUser(body: UserSave): Promise<UserGrant[]> {
  return api.post('/user/save', body, { schema: userSaveResponseSchema, alertOnError: false });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveUser,
    // Brand permissions are the same data seen from the brands' side.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: USERS_KEY }), queryClient.invalidateQueries({ queryKey: ['brands'] })]),
  });
}
