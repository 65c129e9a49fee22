/**
 * The module page on a slow network (issue 34 item 10): while its lock and modules calls are on their
 * way, the page already draws its frame — the header and card skeletons — instead of a blank page with a
 * spinner. The two calls are held by the browser (page.route) until the test lets them go; the early calls
 * of public/early-calls.js go through the same route. At 1440 px.
 *
 * Uses a module no other browser test edits: Marea (MRA) best sellers 02 of M09_2027 (only opened, never changed).
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const MONTH = 'M09_2027';
const MODULE = 'MRA_SUN_BEST_02';
const PAGE = `/backoffice/module?modules=${MODULE}|${MONTH}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await loginAs(page, 'admin');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** Holds every call to `pattern` until `release()`; answers how many were held. */
async function hold(pattern: string): Promise<{ release: () => void; held: () => number }> {
  const waiting: Route[] = [];
  let released = false;
  await page.route(pattern, async (route) => {
    if (released) return route.continue();
    waiting.push(route);
  });
  return {
    release: () => {
      released = true;
      for (const route of waiting.splice(0)) void route.continue();
    },
    held: () => waiting.length,
  };
}

describe('module page frame', () => {
  it('draws the header and card skeletons at once while the lock and modules calls are pending', async () => {
    const modules = await hold('**/api/module/modules');
    const lock = await hold('**/api/module/lock');
    await page.goto(PAGE);

    // The frame, with both calls still unanswered.
    await page.getByTestId('export-module').waitFor();
    await page.getByTestId('module-skeletons').waitFor();
    expect(await page.getByTestId('module-skeleton').count()).toBeGreaterThanOrEqual(1);
    expect(modules.held() + lock.held()).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('module-card').count()).toBe(0);
    // Said to a screen reader: the list is busy.
    expect(await page.getByTestId('module-skeletons').getAttribute('aria-busy')).toBe('true');
    await page.waitForTimeout(300);
    await screenshot(page, 'module-page-frame');

    modules.release();
    lock.release();
    const card = page.locator(`[data-testid="module-card"][data-module="${MODULE}"]`);
    await card.waitFor();
    expect(await page.getByTestId('module-skeletons').count()).toBe(0);
    await page.waitForTimeout(300);
    await screenshot(page, 'module-page-frame-loaded');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
