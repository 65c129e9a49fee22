import { useQuery } from '@tanstack/react-query';
import { classificationOptionsAnswerSchema } from '@bo/shared/cluster-editor';
import { api } from '@/lib/api-client';

/** GET /api/cluster/classificationOptions: every client classification, for the picker. */
export function useClassificationOptions() {
  return useQuery({
    queryKey: ['cluster-editor', 'classifications'],
    queryFn: () => api.get('/cluster/classificationOptions', { schema: classificationOptionsAnswerSchema }),
    staleTime: 60_000,
  });
}
