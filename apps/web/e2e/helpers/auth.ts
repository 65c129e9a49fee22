import type { Page } from 'playwright-core';

export const LOGIN_URL = /\/backoffice\/login$/;
export const HOME_URL = /\/backoffice\/?$/;
export const WELCOME_TEXT = 'WELCOME TO YOUR ASSORTMENT PERSONALIZATION TOOL BACKOFFICE';

export const loginButton = (page: Page) => page.getByRole('button', { name: 'Login', exact: true });

/** Fills the login form and submits it with the button. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await loginButton(page).click();
}

/** Logs in from the login page and waits for home. */
export async function loginAs(page: Page, username = 'admin', password = 'demo'): Promise<void> {
  await page.goto('/backoffice/login');
  await submitLogin(page, username, password);
  await page.waitForURL(HOME_URL);
  await page.getByText(WELCOME_TEXT).waitFor();
}

export function storedSession(page: Page): Promise<{ user: { username: string }; savedAt: number } | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('bo_session');
    return raw ? (JSON.parse(raw) as { user: { username: string }; savedAt: number }) : null;
  });
}
