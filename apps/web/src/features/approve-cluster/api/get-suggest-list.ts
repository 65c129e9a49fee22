import { useQuery } from '@tanstack/react-query';
import { suggestListAnswerSchema } from '@bo/shared/suggested-clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/suggestList ({ country: [] } = every country the caller may see). */
export function getSuggestList(country: string[] = []) {
  return api.post('/cluster/suggestList', { country }, { schema: suggestListAnswerSchema });
}

export const suggestListQueryKey = ['approve-cluster', 'suggestList'] as const;

export function useSuggestList() {
  return useQuery({ queryKey: suggestListQueryKey, queryFn: () => getSuggestList() });
}
