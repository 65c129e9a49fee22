import type { z } from 'zod';
import type { itemEvent, scopeEvent } from '@bo/shared/live-events';

type ItemChange = z.infer<typeof itemEvent>;
type ScopeChange = z.infer<typeof scopeEvent>;

/**
 * What changed during one debounce window (~200 ms) of the stream. `all`: the stream was lost and is back,
 * so anything may have changed meanwhile (every list refetches once).
 */
export interface ChangeBatch {
  all: boolean;
  items: ItemChange[];
  scopes: ScopeChange[];
}

/** What a list shows: months and brands (null / empty: any), optionally one kind of item. */
interface ListScope {
  monthIds?: readonly string[] | null;
  brands?: readonly string[] | null;
  kind?: 'module' | 'cluster';
}

const inList = (list: readonly string[] | null | undefined, value: string) => !list || list.length === 0 || value === '*' || list.includes(value);

/** Whether a batch may change what a list of that scope shows: the list refetches only then. */
export function batchTouches(batch: ChangeBatch, scope: ListScope = {}): boolean {
  if (batch.all || batch.scopes.some((s) => inList(scope.monthIds, s.monthId) && inList(scope.brands, s.brand))) return true;
  return batch.items.some((i) => (!scope.kind || scope.kind === i.kind) && inList(scope.monthIds, i.monthId) && inList(scope.brands, i.brand));
}

export const EMPTY_BATCH: ChangeBatch = { all: false, items: [], scopes: [] };
