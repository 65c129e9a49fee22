import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { flash } from '@/components/ui/flash';
import { ApiError } from '@/lib/api-error';
import { legoQueryOptions } from '../api/check-lego';

/** The spec's debounce of the LEGO lookup (part 1 §9). */
const LEGO_DEBOUNCE_MS = 700;
export const LEGO_TEXTS = { checking: 'Checking LEGO...', lego: 'LEGO', failed: 'Failed to fetch LEGO status' } as const;

export type LegoState = 'idle' | 'checking' | 'lego' | 'notLego';

/**
 * A month, one brand and one collection trigger a LEGO lookup, 700 ms after the last change.
 * A failure shows the server's message (or 'Failed to fetch LEGO status') and clears the badge.
 */
export function useLegoStatus(monthId: string | null, brandCode: string | null, collection: string | null): LegoState {
  const key = monthId && brandCode && collection ? `${monthId}|${brandCode}|${collection}` : null;
  const [debounced] = useDebouncedValue(key, LEGO_DEBOUNCE_MS);
  // The key settled: the current values are the debounced ones.
  const settled = !!debounced && debounced === key;
  const query = useQuery(legoQueryOptions(settled ? { monthId: monthId!, brandCode: brandCode!, collection: collection! } : null, settled));
  useEffect(() => {
    if (query.error) flash(query.error instanceof ApiError && query.error.message ? query.error.message : LEGO_TEXTS.failed, 'error');
  }, [query.error]);
  if (!key) return 'idle';
  if (debounced !== key || query.isFetching) return 'checking';
  if (query.isError) return 'idle';
  return query.data ? 'lego' : 'notLego';
}
