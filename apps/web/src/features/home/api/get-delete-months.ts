import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

export type DeletableKind = 'module' | 'cluster';

/** GET /module/{name}/months?purpose=delete (or the cluster one): the months the item may be deleted from. */
export const getDeleteMonths = (kind: DeletableKind, key: string) =>
  api.get(`/${kind}/${encodeURIComponent(key)}/months`, { query: { purpose: 'delete' }, schema: z.array(z.string()), alertOnError: false });

/** The months one item may be deleted from, read each time the dialog opens. */
export const deleteMonthsQueryOptions = (kind: DeletableKind, key: string, enabled: boolean) =>
  queryOptions({ queryKey: ['home', 'deleteMonths', kind, key], queryFn: () => getDeleteMonths(kind, key), enabled, staleTime: 0, retry: false });
