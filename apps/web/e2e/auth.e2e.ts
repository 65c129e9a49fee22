import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOME_URL, LOGIN_URL, loginAs, loginButton, storedSession, submitLogin, WELCOME_TEXT } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(async () => {
  await context?.close();
});

async function tokenCookie() {
  return (await context.cookies()).find((cookie) => cookie.name === 'bo_token');
}

describe('login page', () => {
  it('renders, and enables Login only when both fields are filled', async () => {
    await page.goto('/backoffice/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByText('Assortment Backoffice').first().isVisible()).toBe(true);
    expect(await loginButton(page).isDisabled()).toBe(true);
    await screenshot(page, 'login-empty');

    await page.getByLabel('Username').fill('admin');
    expect(await loginButton(page).isDisabled()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('demo');
    expect(await loginButton(page).isEnabled()).toBe(true);
    await page.getByLabel('Username').fill('   ');
    expect(await loginButton(page).isDisabled()).toBe(true);
    await page.getByLabel('Username').fill('admin');
    await screenshot(page, 'login-filled');
  });

  it('shows the server message for a wrong password (Enter submits)', async () => {
    await page.goto('/backoffice/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.innerText()).toBe('The credentials are invalid');
    expect(page.url()).toMatch(LOGIN_URL);
    expect(await tokenCookie()).toBeUndefined();
    await screenshot(page, 'login-wrong-password');
  });

  it('logs admin/demo in and lands on home with the user menu', async () => {
    await page.goto('/backoffice/login');
    await submitLogin(page, 'admin', 'demo');
    await page.waitForURL(HOME_URL);
    await page.getByText(WELCOME_TEXT).waitFor();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(true);
    expect((await page.getByTestId('user-name').innerText()).trim()).not.toBe('');

    const cookie = await tokenCookie();
    expect(cookie?.sameSite).toBe('Strict');
    expect(cookie?.path).toBe('/');
    expect((await storedSession(page))?.user.username).toBe('admin');
    await screenshot(page, 'home');

    await page.getByTestId('user-menu').hover();
    const frontoffice = page.getByRole('menuitem', { name: 'Frontoffice' });
    await frontoffice.waitFor();
    expect(await frontoffice.getAttribute('href')).toBe('/myStars');
    expect(await page.getByRole('menuitem', { name: 'BackOffice' }).isVisible()).toBe(true);
    expect(await page.getByRole('menuitem', { name: 'Logout' }).isVisible()).toBe(true);
    await page.waitForFunction(() => getComputedStyle(document.querySelector('[role="menu"]')!).opacity === '1');
    await screenshot(page, 'home-user-menu');
  });
});

describe('route guard', () => {
  it('sends visitors without a session to the login page', async () => {
    await page.goto('/backoffice/manageUser');
    await page.waitForURL(LOGIN_URL);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.goto('/backoffice/no-such-screen');
    await page.waitForURL(LOGIN_URL);
    await page.goto('/backoffice/');
    await page.waitForURL(LOGIN_URL);
  });

  it('sends unknown paths to the login page even when signed in', async () => {
    await loginAs(page);
    await page.goto('/backoffice/no-such-screen');
    await page.waitForURL(LOGIN_URL);
    // The session is still there: the login page moves a signed-in user on to home.
    await page.waitForURL(HOME_URL);
  });

  it('opens the screens of the route table for a signed-in user', async () => {
    await loginAs(page);
    await page.goto('/backoffice/manageUser');
    await page.getByRole('heading', { name: 'Manage Users' }).waitFor();
    await screenshot(page, 'route-manage-users');

    await page.goto('/backoffice/approve-cluster');
    await page.getByRole('heading', { name: 'Approve Cluster' }).waitFor();
  });
});

describe('session', () => {
  it('logs out from the hover menu; a reload stays on the login page', async () => {
    await loginAs(page);
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(LOGIN_URL);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await tokenCookie()).toBeUndefined();
    expect(await storedSession(page)).toBeNull();
    await screenshot(page, 'after-logout');

    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(page.url()).toMatch(LOGIN_URL);
    await page.goto('/backoffice/');
    await page.waitForURL(LOGIN_URL);
  });

  it('restores the session on reload, on the same page', async () => {
    await loginAs(page);
    await page.goto('/backoffice/manageBrand');
    await page.getByRole('heading', { name: 'Manage Brands' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Manage Brands' }).waitFor();
    expect(page.url()).toMatch(/\/backoffice\/manageBrand$/);
    expect(await page.getByTestId('user-menu').isVisible()).toBe(true);
    await screenshot(page, 'restored-session');
  });

  it('does not restore a session saved more than 6 hours ago', async () => {
    await loginAs(page);
    expect(await storedSession(page)).not.toBeNull();
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('bo_session') ?? '{}') as { savedAt: number };
      stored.savedAt = Date.now() - 6 * 60 * 60 * 1000 - 60_000;
      localStorage.setItem('bo_session', JSON.stringify(stored));
    });
    await page.reload();
    await page.waitForURL(LOGIN_URL);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await storedSession(page)).toBeNull();
    expect(await tokenCookie()).toBeUndefined();
    await screenshot(page, 'stale-session');
  });

  it('logs out when the server rejects the token', async () => {
    await loginAs(page);
    // Another token in the cookie (e.g. revoked): the next load's user-info check answers 401.
    await page.evaluate(() => {
      document.cookie = 'bo_token=not.a.valid-token; Path=/; SameSite=Strict';
    });
    await page.reload();
    await page.waitForURL(LOGIN_URL);
    expect(await storedSession(page)).toBeNull();
    expect(await page.getByTestId('session-notice').innerText()).toBe('Your session has ended. Please log in again.');
    await screenshot(page, 'rejected-token');
  });

  it('logs out when the token expires', async () => {
    await page.clock.install();
    await loginAs(page);
    const expiresAt = await page.evaluate(() => {
      const token = /(?:^|; )bo_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
      return payload.exp * 1000;
    });
    const now = await page.evaluate(() => Date.now());
    await page.clock.fastForward(expiresAt - now + 1000);
    await page.waitForURL(LOGIN_URL);
    expect(await page.getByTestId('session-notice').innerText()).toBe('Your session has expired. Please log in again.');
    expect(await storedSession(page)).toBeNull();
    expect(await tokenCookie()).toBeUndefined();
    await screenshot(page, 'expired-session');
  });
});
