import { useQuery } from '@tanstack/react-query';
import { moduleCompositionAnswerSchema } from '@bo/shared/cluster-editor';
import { api } from '@/lib/api-client';

/** POST /api/cluster/moduleComposition: a module's active SKUs for the preview pane. */
export function useModuleComposition(key: { moduleName: string; monthId: string } | null) {
  return useQuery({
    queryKey: ['approve-cluster', 'composition', key],
    queryFn: () => api.post('/cluster/moduleComposition', key, { schema: moduleCompositionAnswerSchema, alertOnError: false }),
    enabled: !!key,
    retry: false,
  });
}
