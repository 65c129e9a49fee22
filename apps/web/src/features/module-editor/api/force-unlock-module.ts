import type { ModuleKey } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** POST /module/unlock?forced=true: the page's "Yes, Unlock" on a module another user holds (admin, or edit right). */
export const forceUnlockModule = (key: ModuleKey) => api.post('/module/unlock', [key], { query: { forced: true }, alertOnError: false });
