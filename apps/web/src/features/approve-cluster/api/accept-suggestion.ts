import { decisionAnswerSchema, type SuggestedCluster } from '@bo/shared/suggested-clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/accept: the cluster line; the answer's message goes in a popup. */
export function acceptSuggestion(line: SuggestedCluster) {
  return api.post('/cluster/accept', line, { schema: decisionAnswerSchema, alertOnError: false });
}
