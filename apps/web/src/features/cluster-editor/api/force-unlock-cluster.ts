import type { ClusterKey } from '@bo/shared/clusters';
import { api } from '@/lib/api-client';

/** POST /cluster/unlock?forced=true: the page's "Yes, Unlock" on a cluster another user holds (admin, or edit right). */
export const forceUnlockCluster = (key: ClusterKey) => api.post('/cluster/unlock', [key], { query: { forced: true }, alertOnError: false });
