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
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { ROUTE_TABLE, editorTargets, routeVisits } from './helpers/routes';

let browser: Browser;
let context: BrowserContext;
let page: Page;

const PLACEHOLDER_TEXT = 'This screen is coming soon.';
const CRASH_TEXT = 'Something went wrong';

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
    const visits = routeVisits(await editorTargets(page, context));
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
