import type { ClusterKey } from '@bo/shared/clusters';
import type { ModuleKey } from '@bo/shared/modules';
import { api } from './api-client';

/**
 * "Yes, Unlock" on an item another user holds (admin, or the edit right): home's lock icon and the
 * editors' lock banner (components/ui/forced-unlock.ts has the texts and the dialog).
 */
export const forceUnlockModule = (key: ModuleKey) => api.post('/module/unlock', [key], { query: { forced: true }, alertOnError: false });

export const forceUnlockCluster = (key: ClusterKey) => api.post('/cluster/unlock', [key], { query: { forced: true }, alertOnError: false });
