/**
 * The spec's route table (part 1 §2: 18 routes) in real Chromium on the demo data: signed in as admin,
 * every route shows its own screen — not the "coming soon" stand-in, not the crash page, not a
 * redirect to /login — and a screen-specific text proves which screen it is. Signed out, /login shows
 * the login form and every other route goes to /login. Nothing is changed (the editors' locks are
 * released by leaving them).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_URL, loginAs, loginButton } from './helpers/auth';
import { pageApiCall } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;

const PLACEHOLDER_TEXT = 'This screen is coming soon.';
const CRASH_TEXT = 'Something went wrong';

/** The 18 routes of part 1 §2's table, in its order (/login is checked signed out below). */
const ROUTE_TABLE = [
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

interface Month {
  monthId: string;
  open: boolean;
}

/** A module and a cluster of an open month of the first brand, through the calls home makes. */
async function editorTargets() {
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

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await loginAs(page, 'admin');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('the route table', () => {
  it('lists the 18 routes of the spec, each once', () => {
    expect(new Set(ROUTE_TABLE).size).toBe(18);
  });

  it('shows a real screen on every route, signed in', async () => {
    const t = await editorTargets();
    const q = encodeURIComponent;
    /** The URL to visit and a text only that screen shows. */
    const visits: Record<Exclude<(typeof ROUTE_TABLE)[number], '/login'>, { url: string; text: string | RegExp }> = {
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
    expect(Object.keys(visits).length + 1).toBe(ROUTE_TABLE.length);

    for (const route of ROUTE_TABLE.filter((r) => r !== '/login')) {
      const { url, text } = visits[route];
      await page.goto(`/backoffice${url}`);
      await page.getByText(text).first().waitFor({ timeout: 20_000 });
      const pathname = new URL(page.url()).pathname.replace(/\/$/, '');
      expect(pathname, `${route} stays on its route`).toBe(`/backoffice${route}`.replace(/\/$/, ''));
      expect(await page.getByText(PLACEHOLDER_TEXT).count(), `${route} shows the placeholder`).toBe(0);
      expect(await page.getByText(CRASH_TEXT).count(), `${route} crashed`).toBe(0);
      await screenshot(page, `route${route === '/' ? '-home' : route.replaceAll('/', '-')}`);
    }
    // Leaving the last editor released its lock: the module opens for someone else.
    await page.goto('/backoffice/');
  });

  it('shows the login form on /login and sends every other route to /login, signed out', async () => {
    const signedOut = await openPage(browser);
    try {
      await signedOut.page.goto('/backoffice/login');
      await loginButton(signedOut.page).waitFor();
      for (const route of ROUTE_TABLE.filter((r) => r !== '/login')) {
        await signedOut.page.goto(`/backoffice${route}`);
        await signedOut.page.waitForURL(LOGIN_URL);
        await loginButton(signedOut.page).waitFor();
      }
      await screenshot(signedOut.page, 'route-login');
    } finally {
      await signedOut.context.close();
    }
  });
});
