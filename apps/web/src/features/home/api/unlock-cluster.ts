import { api } from '@/lib/api-client';

/** POST /cluster/unlock?forced=true: the home's "Yes, Unlock" on a cluster another user holds. */
export const unlockCluster = (key: { clusterId: string; monthId: string }) =>
  api.post('/cluster/unlock', [key], { query: { forced: true }, alertOnError: false });
