import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOME_URL, LOGIN_URL, loginAs, loginButton, storedSession, submitLogin, WELCOME_TEXT } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;
/** What Chromium reported as blocked by the Content-Security-Policy during the test. */
let cspViolations: string[];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
  cspViolations = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
  });
});
afterEach(async () => {
  await context?.close();
  // Every test of this file runs under the server's CSP: nothing may have been blocked.
  expect(cspViolations).toEqual([]);
});

async function tokenCookie() {
  return (await context.cookies()).find((cookie) => cookie.name === 'bo_token');
}

/** The session cookie is HttpOnly: page scripts do not see it. */
const pageSeesToken = () => page.evaluate(() => document.cookie.includes('bo_token'));

/** Waits for the (fire-and-forget) logout call that clears the cookie; start it before the action. */
const logoutAnswer = () => page.waitForResponse((res) => res.url().endsWith('/api/authorization/logout'));

/** A module no other browser test changes, opened read-only by the viewer. */
const PICTURE_MODULE = '/backoffice/module?moduleName=MRA_SUN_PILOT_01&monthId=M09_2027';

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
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.secure).toBe(false); // plain http here; Secure over https (API tests)
    expect(await pageSeesToken()).toBe(false);
    expect((await storedSession(page))?.user.username).toBe('admin');
    await screenshot(page, 'home');

    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: 'BackOffice' }).waitFor();
    // This server has no FRONT_OFFICE_URL: no Frontoffice entry (home-layout.e2e.ts).
    expect(await page.getByRole('menuitem', { name: 'Frontoffice' }).count()).toBe(0);
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
  it('logs out from the hover menu; a reload stays on the login page; the token is refused from then on', async () => {
    const loginAnswer = page.waitForResponse((res) => res.url().endsWith('/api/authorization/login'));
    await loginAs(page);
    const token = ((await (await loginAnswer).json()) as { access_token: string }).access_token;
    const loggedOut = logoutAnswer();
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(LOGIN_URL);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await loggedOut).status()).toBe(204);
    expect(await tokenCookie()).toBeUndefined();
    expect(await storedSession(page)).toBeNull();
    // Revoked by the logout (docs/DECISIONS.md, "Sessions that really end"): a copy of the token no longer works.
    expect((await page.request.get('/api/month/all', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
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
    const loggedOut = logoutAnswer();
    await page.reload();
    await page.waitForURL(LOGIN_URL);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await storedSession(page)).toBeNull();
    await loggedOut;
    expect(await tokenCookie()).toBeUndefined();
    await screenshot(page, 'stale-session');
  });

  it('logs out when the server rejects the token', async () => {
    await loginAs(page);
    // Another token in the cookie (e.g. revoked): the next load's session check answers 401.
    await context.addCookies([
      { name: 'bo_token', value: 'not.a.valid-token', url: new URL(page.url()).origin, httpOnly: true, sameSite: 'Strict' },
    ]);
    await page.reload();
    await page.waitForURL(LOGIN_URL);
    expect(await storedSession(page)).toBeNull();
    expect(await page.getByTestId('session-notice').innerText()).toBe('Your session has ended. Please log in again.');
    await screenshot(page, 'rejected-token');
  });

  it('logs out when the token expires', async () => {
    await page.clock.install();
    await loginAs(page);
    const token = (await tokenCookie())?.value ?? '';
    const expiresAt = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;
    const now = await page.evaluate(() => Date.now());
    const loggedOut = logoutAnswer();
    await page.clock.fastForward(expiresAt - now + 1000);
    await page.waitForURL(LOGIN_URL);
    await loggedOut;
    expect(await page.getByTestId('session-notice').innerText()).toBe('Your session has expired. Please log in again.');
    expect(await storedSession(page)).toBeNull();
    expect(await tokenCookie()).toBeUndefined();
    await screenshot(page, 'expired-session');
  });
});

describe('HttpOnly session cookie', () => {
  it('authenticates SKU pictures, survives a reload, and is gone after logout', async () => {
    await loginAs(page, 'viewer');
    expect(await pageSeesToken()).toBe(false);

    // Pictures are plain <img> requests: only the cookie authenticates them.
    await page.goto(PICTURE_MODULE);
    const picture = page.locator('[data-testid="sku-tile"] img').first();
    await picture.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="sku-tile"] img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    const src = (await picture.getAttribute('src'))!;
    expect(src).toMatch(/^\/data\/images\//);
    await screenshot(page, 'module-pictures-viewer');

    // A reload gets the token back from GET /api/authorization/session and stays on the page.
    const sessionCall = page.waitForResponse((res) => res.url().endsWith('/api/authorization/session'));
    await page.reload();
    expect((await sessionCall).status()).toBe(200);
    await page.locator('[data-testid="sku-tile"] img').first().waitFor();
    expect(page.url()).toContain('moduleName=MRA_SUN_PILOT_01');
    expect(await page.getByTestId('user-menu').isVisible()).toBe(true);
    expect(await pageSeesToken()).toBe(false);
    // no-store: the server's answer, not the browser's copy (pictures are cached privately for a day).
    const picturesAnswer = (url: string) => page.evaluate(async (u) => (await fetch(u, { cache: 'no-store' })).status, url);
    expect(await picturesAnswer(src)).toBe(200);

    // Logout asks the server to clear the cookie: the next picture is refused.
    const logoutCall = page.waitForResponse((res) => res.url().endsWith('/api/authorization/logout'));
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(LOGIN_URL);
    expect((await logoutCall).status()).toBe(204);
    expect(await tokenCookie()).toBeUndefined();
    expect(await picturesAnswer(src)).toBe(401);
  });
});

