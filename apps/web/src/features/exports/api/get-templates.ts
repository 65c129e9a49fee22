import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { templateSchema } from '@bo/shared/reference-data';
import { api } from '@/lib/api-client';

export type TemplatesType = 'modulo' | 'cluster';

/** GET /api/templates/getByTemplatesType?templatesType= ('modulo' for modules). */
export const useTemplates = (templatesType: TemplatesType, enabled: boolean) =>
  useQuery({
    queryKey: ['templates', templatesType],
    queryFn: () => api.get('/templates/getByTemplatesType', { query: { templatesType }, schema: z.array(templateSchema) }),
    enabled,
    staleTime: 10 * 60_000,
  });
