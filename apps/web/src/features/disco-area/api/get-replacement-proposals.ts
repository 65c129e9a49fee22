import { useQuery } from '@tanstack/react-query';
import { replacementProposalsSchema, type ReplacementProposals } from '@bo/shared/disco-area';
import { api } from '@/lib/api-client';

/** POST /sku/replacementProposals: up to five replacements of a discontinued SKU and the lines a replacement changes. */
export function getReplacementProposals(upc: string, signal?: AbortSignal): Promise<ReplacementProposals> {
  return api.post('/sku/replacementProposals', { upc }, { schema: replacementProposalsSchema, signal, alertOnError: false });
}

export const useReplacementProposals = (upc: string | null) =>
  useQuery({
    queryKey: ['disco-area', 'replacement', upc],
    queryFn: ({ signal }) => getReplacementProposals(upc!, signal),
    enabled: upc !== null,
    retry: false,
  });
