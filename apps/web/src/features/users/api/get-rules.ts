import { type Rule, ruleSchema } from '@bo/shared/reference-data';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /rule/all: the rules (reopen, create, delete, import) a grant level can carry. */
export function getRules(): Promise<Rule[]> {
  return api.get('/rule/all', { schema: z.array(ruleSchema) });
}

export function useRules() {
  // Reference data changes rarely: one load per session is enough.
  return useQuery(queryOptions({ queryKey: ['reference-data', 'rule/all'], queryFn: getRules, staleTime: 10 * 60_000 }));
}
