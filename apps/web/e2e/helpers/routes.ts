import type { BrowserContext, Page } from 'playwright-core';
import { pageApiCall } from './api';

/** The 18 routes of part 1 §2's table, in its order (/login is reached signed out). */
export const ROUTE_TABLE = [
  '/history',
  '/module',
  '/cluster',
  '/statistics',
  '/manageUser',
  '/manageBrand',
  '/manageRelease',
  '/uploadTwo',
  '/upload',
  '/pdf-area',
  '/massive-edit-wi',
  '/disco-remove-area',
  '/pending-area',
  '/massive-edit-selected-wi',
  '/export',
  '/',
  '/deletion-area',
  '/login',
] as const;

export type SignedInRoute = Exclude<(typeof ROUTE_TABLE)[number], '/login'>;

interface Month {
  monthId: string;
  open: boolean;
}

export interface EditorTargets {
  monthId: string;
  brand: string;
  module: { moduleName: string; monthId: string };
  cluster: { clusterId: string; monthId: string };
}

/** A module and a cluster of an open month of the first brand, through the calls home makes. */
export async function editorTargets(page: Page, context: BrowserContext): Promise<EditorTargets> {
  const months = await pageApiCall<Month[]>(page, context, 'GET', '/month/all');
  const brands = await pageApiCall<{ brandCode: string }[]>(page, context, 'GET', '/brand/all');
  for (const month of months.filter((m) => m.open)) {
    for (const brand of brands) {
      const body = { monthId: [month.monthId], brand: [brand.brandCode] };
      const modules = await pageApiCall<{ moduleName: string; monthId: string }[]>(page, context, 'POST', '/module/filtered', body);
      const clusters = await pageApiCall<{ clusterId: string; monthId: string }[]>(page, context, 'POST', '/cluster/filtered', body);
      if (modules.length > 0 && clusters.length > 0) {
        return { monthId: month.monthId, brand: brand.brandCode, module: modules[0]!, cluster: clusters[0]! };
      }
    }
  }
  throw new Error('no open month with a module and a cluster of one brand in the demo data');
}

/** For each signed-in route: the URL to visit (under /backoffice) and a text only that screen shows. */
export function routeVisits(t: EditorTargets): Record<SignedInRoute, { url: string; text: string | RegExp }> {
  const q = encodeURIComponent;
  return {
    '/history': { url: '/history', text: /export history/i },
    '/module': { url: `/module?moduleName=${q(t.module.moduleName)}&monthId=${q(t.monthId)}`, text: t.module.moduleName },
    '/cluster': { url: `/cluster?clusterId=${q(t.cluster.clusterId)}&monthId=${q(t.monthId)}`, text: t.cluster.clusterId },
    '/statistics': { url: `/statistics?monthId=${q(t.monthId)}&brand=${q(t.brand)}`, text: 'Statistic Page' },
    '/manageUser': { url: '/manageUser', text: 'Manage Users' },
    '/manageBrand': { url: '/manageBrand', text: 'Manage Brands' },
    '/manageRelease': { url: '/manageRelease', text: 'Manage Releases' },
    '/uploadTwo': { url: '/uploadTwo', text: /Module Composition/i },
    '/upload': { url: '/upload', text: 'Import Module' },
    '/pdf-area': { url: '/pdf-area', text: /PDF/ },
    '/massive-edit-wi': { url: '/massive-edit-wi', text: /MODULE/ },
    '/disco-remove-area': { url: '/disco-remove-area', text: 'Disco Area' },
    '/pending-area': { url: '/pending-area', text: 'Please select at least one filter.' },
    '/massive-edit-selected-wi': { url: '/massive-edit-selected-wi', text: 'Massive Edit Selected' },
    '/export': { url: '/export', text: 'PDF FILES' },
    '/': { url: '/', text: 'WELCOME TO YOUR ASSORTMENT PERSONALIZATION TOOL BACKOFFICE' },
    '/deletion-area': { url: '/deletion-area', text: /Restore Selected/ },
  };
}
