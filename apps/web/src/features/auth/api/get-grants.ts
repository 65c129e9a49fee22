import { grantsResponseSchema } from '@bo/shared/auth';
import type { Grant } from '@bo/shared/grants';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { setGrants } from '@/lib/session';

/** GET /authorization/grant: the user's grants (`obj.roles`). */
export async function getGrants(): Promise<Grant[]> {
  const answer = await api.get('/authorization/grant', { schema: grantsResponseSchema });
  return answer.obj.roles;
}

/** Loads the grants into the session (where permission checks read them). */
export function grantsQueryOptions() {
  return queryOptions({
    queryKey: ['authorization', 'grant'],
    queryFn: async () => {
      const grants = await getGrants();
      setGrants(grants);
      return grants;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Loads the grants when the session has none yet ("on first entry the grants are loaded if missing"). */
export function useLoadGrants(enabled: boolean) {
  return useQuery({ ...grantsQueryOptions(), enabled });
}
