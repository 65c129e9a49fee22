import { type BrandSave, type BrandWithUsers, brandWithUsersSchema } from '@bo/shared/brands';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { BRANDS_KEY } from './get-brands-with-users';

/** POST /brand/save: the brand with its whole permission map; answers the updated brand. */
export function saveBrandGrants(body: BrandSave): Promise<BrandWithUsers> {
  return api.post('/brand/save', body, { schema: brandWithUsersSchema, alertOnError: false });
}

export function useSaveBrandGrants() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBrandGrants,
    // The users' grants are the same data seen from the users' side.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: BRANDS_KEY }), queryClient.invalidateQueries({ queryKey: ['users'] })]),
  });
}
