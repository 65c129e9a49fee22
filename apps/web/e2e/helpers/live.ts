/** What the live browser tests (live-*.e2e.ts) share: a signed-in page per user, and how long a change takes to show. */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loginAs } from './auth';
import { openPage } from './browser';

/** A new browser context (a user of their own) signed in as `username`. */
export async function session(browser: Browser, username: string): Promise<{ context: BrowserContext; page: Page }> {
  const s = await openPage(browser);
  await loginAs(s.page, username);
  return s;
}

/** How long until `check` holds (ms), polling every 50 ms; fails past `limit`. */
export async function timeUntil(check: () => Promise<boolean>, limit: number, what: string): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < limit) {
    if (await check().catch(() => false)) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not within ${limit} ms`);
}
