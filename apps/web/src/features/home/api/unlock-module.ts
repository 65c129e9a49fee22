import { api } from '@/lib/api-client';

/** POST /module/unlock?forced=true: the home's "Yes, Unlock" on a module another user holds. */
export const unlockModule = (key: { moduleName: string; monthId: string }) =>
  api.post('/module/unlock', [key], { query: { forced: true }, alertOnError: false });
