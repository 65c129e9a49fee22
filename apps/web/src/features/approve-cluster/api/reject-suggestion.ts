import { decisionAnswerSchema, type SuggestedCluster } from '@bo/shared/suggested-clusters';
import { api } from '@/lib/api-client';

/** POST /api/cluster/reject: the cluster line plus the optional reason (message). */
export function rejectSuggestion(line: SuggestedCluster, message: string) {
  return api.post('/cluster/reject', { ...line, message: message.trim() || null }, { schema: decisionAnswerSchema, alertOnError: false });
}
