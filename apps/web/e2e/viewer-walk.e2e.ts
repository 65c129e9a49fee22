/**
 * A viewer walks every route of the spec (issue 34 item 6): no screen offers an action the server would
 * refuse. On each route the page's own calls answer no 403, and every action button a viewer may not use
 * (save, publish, copy, restore, export, import, delete, create, massive edit) is absent or disabled — a
 * screen meant for editors or administrators shows its no-access page instead. A disabled action button says
 * why: its reason (components/ui/disabled-reason.tsx) is its accessible description and its tooltip.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { ROUTE_TABLE, editorTargets, routeVisits } from './helpers/routes';

let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Buttons that change something or need an edit, submit, create, import or admin right. */
// 'Import Module' on the module page opens more modules on the page (a view); on /upload it is the file import.
const ACTIONS = /^(save|save all|save & publish|save & publish all|publish|copy|restore selected.*|export.*|import (?!module$).*|upload.*|delete.*|create.*|go to massive edit|add row|preview|unlock|new user|new release)$/i;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await apiToken('viewer');
  await loginAs(page, 'viewer');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('a viewer on every route', { timeout: 300_000 }, () => {
  it('is offered no action the server refuses', async () => {
    const admin = await openPage(browser);
    let visits: ReturnType<typeof routeVisits>;
    try {
      await loginAs(admin.page, 'admin');
      visits = routeVisits(await editorTargets(admin.page, admin.context));
    } finally {
      await admin.context.close();
    }
    const problems: string[] = [];
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403 && r.url().includes('/api/')) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    for (const route of ROUTE_TABLE.filter((r) => r !== '/login')) {
      refused.length = 0;
      await page.goto(`/backoffice${visits[route].url}`);
      await page.getByText(visits[route].text).or(page.locator('[data-no-access]')).first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(600);
      const offered: string[] = [];
      const unexplained: string[] = [];
      for (const button of await page.getByRole('button').all()) {
        const name = ((await button.getAttribute('aria-label')) ?? (await button.innerText())).trim().replace(/\s+/g, ' ');
        if (!ACTIONS.test(name) || !(await button.isVisible())) continue;
        if (await button.isEnabled()) {
          offered.push(name);
          continue;
        }
        // A disabled action says why (components/ui/disabled-reason.tsx): its reason is its description and tooltip.
        const reason = await button.getAttribute('data-disabled-reason');
        if (!reason || (await button.getAttribute('aria-description')) !== reason) unexplained.push(name);
      }
      if (offered.length) problems.push(`${route}: offers ${offered.join(', ')}`);
      if (unexplained.length) problems.push(`${route}: disabled without a reason: ${unexplained.join(', ')}`);
      if (refused.length) problems.push(`${route}: its calls were refused: ${[...new Set(refused)].join(', ')}`);
      await screenshot(page, `viewer${route === '/' ? '-home' : route.replaceAll('/', '-')}`);
    }
    await page.goto('/backoffice/');
    expect(problems).toEqual([]);
  });
});

describe('every role on every route', { timeout: 400_000 }, () => {
  it('a disabled action button says why, for a creator, an editor and an administrator', async () => {
    const admin = await openPage(browser);
    let visits: ReturnType<typeof routeVisits>;
    try {
      await loginAs(admin.page, 'admin');
      visits = routeVisits(await editorTargets(admin.page, admin.context));
    } finally {
      await admin.context.close();
    }
    const problems: string[] = [];
    for (const user of ['creator', 'editor', 'admin']) {
      const session = await openPage(browser);
      try {
        await loginAs(session.page, user);
        for (const route of ROUTE_TABLE.filter((r) => r !== '/login')) {
          await session.page.goto(`/backoffice${visits[route].url}`);
          await session.page.getByText(visits[route].text).or(session.page.locator('[data-no-access]')).first().waitFor({ timeout: 20_000 });
          await session.page.waitForTimeout(600);
          const unexplained: string[] = [];
          for (const button of await session.page.getByRole('button').all()) {
            const name = ((await button.getAttribute('aria-label')) ?? (await button.innerText())).trim().replace(/\s+/g, ' ');
            if (!ACTIONS.test(name) || !(await button.isVisible()) || (await button.isEnabled())) continue;
            const reason = await button.getAttribute('data-disabled-reason');
            if (!reason || (await button.getAttribute('aria-description')) !== reason) unexplained.push(name);
          }
          if (unexplained.length) problems.push(`${user} on ${route}: disabled without a reason: ${unexplained.join(', ')}`);
        }
      } finally {
        await session.context.close();
      }
    }
    expect(problems).toEqual([]);
  });
});
