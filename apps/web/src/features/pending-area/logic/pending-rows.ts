import { clusterKeyString, moduleKeyString } from '@bo/shared/item-keys';
import type { ClusterPendingPage, ModulePendingPage, PendingAreaFilters, PendingAreaRequest } from '@bo/shared/pending-area';
import { clusterUrl, moduleUrl } from '@/lib/editor-urls';

/** A row of either view, with what the table shows and where a click goes. */
export interface PendingItem {
  key: string;
  brandCode: string;
  commodity: string;
  status: string;
  /** The module or cluster label. */
  label: string;
  /** The module name or cluster id. */
  name: string;
  monthId: string;
  legoMonth: boolean;
  userLock: string | null;
  rpasErrors: string | null;
  /** The editor route of the item (opened in a new tab). */
  url: string;
}

export interface PendingPage {
  count: number;
  pageSize: number;
  items: PendingItem[];
}

export function toPendingPage(page: ModulePendingPage | ClusterPendingPage): PendingPage {
  const items: PendingItem[] =
    'modulePendingAreaDtoList' in page
      ? page.modulePendingAreaDtoList.map((r) => ({ ...r, key: moduleKeyString(r), name: r.moduleName, label: r.moduleLabel, url: moduleUrl(r) }))
      : page.clusterPendingAreaDtoList.map((r) => ({ ...r, key: clusterKeyString(r), name: r.clusterId, label: r.clusterLabel, url: clusterUrl(r) }));
  return { count: page.count, pageSize: page.maxResultsForPage, items };
}

export const EMPTY_FILTERS: PendingAreaFilters = { status: [], brandCode: [], commodity: [], months: [] };

/** The body of a search: the chosen filters (empty ones left out) and the zero-based page. */
export function toPendingRequest(filters: PendingAreaFilters, pageIndex: number): PendingAreaRequest {
  const body: PendingAreaRequest = { pageIndex };
  for (const [key, values] of Object.entries(filters) as [keyof PendingAreaFilters, string[] | undefined][]) {
    if (values && values.length > 0) (body as Record<string, unknown>)[key] = values;
  }
  return body;
}

