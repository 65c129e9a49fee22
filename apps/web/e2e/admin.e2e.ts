/**
 * Administration (part 1 §2 Manage Users / Brands / Releases) in real Chromium, on the demo data:
 * users from the provider's list, the permission popups, a brand granted to the editor who can then
 * edit its modules, and the release closed (items read-only) and re-opened.
 *
 * Leaves the demo world as other browser tests expect it: the editor's Nordika (NRD) grants and the
 * open release R2027 are restored at the end, whatever happens. It adds one user (planner.eu@example.com).
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { baseUrl } from './helpers/server';

const BRAND = 'NRD';
const RELEASE = 'R2027';
const MONTH = 'M01_2027';
const NEW_USER = 'planner.eu@example.com';

let browser: Browser;
const contexts: BrowserContext[] = [];

interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/**
 * A call from the page with the session's token, as the web app makes it (the HttpOnly cookie is not
 * readable by scripts: the token comes from GET /api/authorization/session, which the cookie authenticates).
 */
function pageApi<T = unknown>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = await fetch('/api/authorization/session');
      const { access_token: token } = (await session.json()) as { access_token: string };
      const res = await fetch(`/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  ) as Promise<ApiAnswer<T>>;
}

/** The admin's calls from the test process (set-up look-ups and the final clean-up). */
async function adminApi<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> {
  const base = baseUrl();
  const login = await fetch(`${base}/api/authorization/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function newPage(username: string): Promise<Page> {
  const { context, page } = await openPage(browser);
  contexts.push(context);
  await loginAs(page, username);
  return page;
}

/** A Mantine chip: its input is hidden, its label takes the click. */
const chip = (scope: Page | Locator, testId: string) => scope.locator(`[data-testid="${testId}"] + label`);
const chipInput = (scope: Page | Locator, testId: string) => scope.locator(`[data-testid="${testId}"]`);
const notification = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });
const row = (page: Page, testId: string) => page.getByTestId(testId);
/** A segment of a SegmentedControl: the radio is hidden, its label takes the click. */
const segment = (page: Page, group: string, label: string) => page.getByRole('radiogroup', { name: group }).getByText(label, { exact: true });

interface BrandMap {
  brand: string;
  permissionMap: { view: number[]; edit: number[]; submit: number[] };
}
let originalBrand: BrandMap | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  const brands = await adminApi<BrandMap[]>('GET', '/brand/allBrandsWithUsers');
  originalBrand = brands.body.find((b) => b.brand === BRAND);
});

afterAll(async () => {
  // Whatever happened above, the next browser tests find R2027 open and the editor without NRD.
  const releases = await adminApi<{ releaseId: string; status: string }[]>('GET', '/release/all');
  if (releases.body.find((r) => r.releaseId === RELEASE)?.status === 'CLOSED') {
    await adminApi('POST', '/release/changeStatus', { releaseId: RELEASE, action: 're-open' });
  }
  if (originalBrand) await adminApi('POST', '/brand/save', originalBrand);
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('Manage Users', () => {
  let page: Page;
  beforeAll(async () => {
    page = await newPage('admin');
  });

  it('lists the users with e-mail and status, searchable by e-mail and filtered by status', async () => {
    await page.goto('/backoffice/manageUser');
    await page.getByRole('heading', { name: 'Manage Users' }).waitFor();
    await row(page, 'user-row-admin@example.com').waitFor();
    expect(await row(page, 'user-row-editor@example.com').innerText()).toContain('Enabled');
    await screenshot(page, 'admin-users');

    await segment(page, 'Status', 'New').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="user-row-"]').length === 2);
    expect(await row(page, 'user-row-nina.nuova@example.com').innerText()).toContain('New');
    await segment(page, 'Status', 'Disabled').click();
    await row(page, 'user-row-dario.dori@example.com').waitFor();
    expect(await page.locator('[data-testid^="user-row-"]').count()).toBe(1);
    await segment(page, 'Status', 'All').click();

    await page.getByLabel('Search by e-mail').fill('SUBMIT');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="user-row-"]').length === 1);
    await row(page, 'user-row-submitter@example.com').waitFor();
    await page.getByLabel('Search by e-mail').fill('nobody-like-this');
    await page.getByText('No users match the search.').waitFor();
    await page.getByLabel('Clear search').click();
    await row(page, 'user-row-admin@example.com').waitFor();
  });

  it("adds a user from the provider's list, refuses one that is not on it, and warns about one already present", async () => {
    const email = page.getByLabel('E-mail', { exact: true });
    const add = page.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    await email.fill('not-an-e-mail');
    expect(await add.isDisabled()).toBe(true);
    await page.getByText('Enter a valid e-mail address').waitFor();

    await email.fill('Planner.EU@Example.com');
    expect(await email.inputValue()).toBe(NEW_USER);
    await page.getByTestId('new-user-country').click();
    await page.getByRole('option', { name: 'Spain (ES)' }).click();
    expect(await add.isEnabled()).toBe(true);
    await add.click();
    await notification(page, 'The user has been added').waitFor();
    await row(page, `user-row-${NEW_USER}`).waitFor();
    expect(await row(page, `user-row-${NEW_USER}`).innerText()).toMatch(/New/);
    expect(await email.inputValue()).toBe('');
    await screenshot(page, 'admin-users-added');

    await email.fill('stranger@elsewhere.com');
    await add.click();
    await notification(page, "The user cannot be created because it is not on the provider's list").waitFor();
    await screenshot(page, 'admin-users-not-on-list');

    await email.fill('editor@example.com');
    await add.click();
    await notification(page, 'The user is already present and can be edited').waitFor();
    expect(await notification(page, 'The user is already present and can be edited').getAttribute('style')).toContain('orange');
  });

  it('enables the new user and saves a role with paired grants; edit brings view, which is then locked', async () => {
    await page.getByTestId(`status-switch-${NEW_USER}`).locator('..').click();
    await notification(page, `${NEW_USER} is now enabled`).waitFor();
    await row(page, `user-row-${NEW_USER}`).getByText('Enabled', { exact: true }).waitFor();

    await page.getByTestId(`permissions-${NEW_USER}`).click();
    const dialog = page.getByTestId('user-permissions-dialog').getByRole('dialog');
    await dialog.getByText(NEW_USER).first().waitFor();
    const save = dialog.getByTestId('permissions-save');
    expect(await save.isDisabled()).toBe(true);

    await dialog.getByLabel('Role').click();
    await page.getByRole('option', { name: 'EDITOR' }).click();
    await dialog.getByTestId('permissions-tab-edit').click();
    await chip(dialog, 'chip-edit-brand-SLN').click();
    await dialog.getByTestId('permissions-pairing').waitFor();
    expect(await dialog.getByTestId('permissions-pairing').innerText()).toContain('Edit has brands but no stars zones');
    expect(await dialog.getByTestId('permissions-pairing').innerText()).toContain('View has brands but no stars zones');
    expect(await save.isDisabled()).toBe(true);
    await screenshot(page, 'admin-user-permissions-unpaired');

    await chip(dialog, 'chip-edit-starszone-EU').click();
    await dialog.getByTestId('permissions-pairing').waitFor({ state: 'detached' });
    await dialog.getByTestId('permissions-tab-view').click();
    // Edit brought view, locked while edit remains: clicking it changes nothing.
    expect(await chipInput(dialog, 'chip-view-brand-SLN').isChecked()).toBe(true);
    expect(await chipInput(dialog, 'chip-view-brand-SLN').getAttribute('data-locked')).toBe('true');
    await chip(dialog, 'chip-view-brand-SLN').click();
    expect(await chipInput(dialog, 'chip-view-brand-SLN').isChecked()).toBe(true);
    // The ALL chip selects every stars zone at view.
    await chip(dialog, 'chip-view-starszone-ALL').click();
    expect(await chipInput(dialog, 'chip-view-starszone-LATAM').isChecked()).toBe(true);
    await screenshot(page, 'admin-user-permissions');

    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await notification(page, `The grants of ${NEW_USER} have been saved`).waitFor();
    const users = await pageApi<{ email: string; role: string; grants: { grantType: string; grantCode: string; permissionType: string }[] }[]>(page, 'GET', '/user/');
    const saved = users.body.find((u) => u.email === NEW_USER)!;
    expect(saved.role).toBe('EDITOR');
    const keys = saved.grants.map((g) => `${g.grantType}:${g.grantCode}:${g.permissionType}`);
    expect(keys).toEqual(expect.arrayContaining(['brand:SLN:view', 'brand:SLN:edit', 'starszone:EU:edit', 'starszone:LATAM:view']));
    expect(await row(page, `user-row-${NEW_USER}`).innerText()).toContain('1 brand · 5 zones');
  });
});

describe('Manage Brands and Manage Releases: a brand granted, its modules editable, then read-only while the release is closed', () => {
  let admin: Page;
  let editor: Page;
  let moduleKey: { moduleName: string; monthId: string };

  beforeAll(async () => {
    // A WIP module of the brand in an open month of R2027, in a zone the editor holds (EU or NA).
    const candidates = ['SUN', 'OPT'].flatMap((c) =>
      ['BEST', 'NEW', 'PILOT', 'SQUARE', 'ROUND', 'CATEYE', 'SPORT', 'RECT'].map((f) => ({ moduleName: `${BRAND}_${c}_${f}_01`, monthId: MONTH })),
    );
    const found = await adminApi<{ moduleName: string; monthId: string; status: string; starZones: string[]; locked: boolean }[]>('POST', '/module/details', candidates);
    const pick = found.body.find((m) => m.status === 'WIP' && !m.locked && m.starZones.some((z) => z === 'EU' || z === 'NA'));
    if (!pick) throw new Error(`No WIP ${BRAND} module found in ${MONTH}`);
    moduleKey = { moduleName: pick.moduleName, monthId: pick.monthId };
    admin = await newPage('admin');
    editor = await newPage('editor');
  });

  const lock = async () => (await pageApi<{ acquired: boolean }[]>(editor, 'POST', '/module/lock', [moduleKey])).body[0]!;
  const details = async () => (await pageApi<{ releaseClosed: boolean }[]>(editor, 'POST', '/module/details', [moduleKey])).body[0]!;

  it('grants edit on the brand to the editor: view comes with it, and the editor can edit its modules', async () => {
    expect((await lock()).acquired).toBe(false);

    await admin.goto('/backoffice/manageBrand');
    await admin.getByRole('heading', { name: 'Manage Brands' }).waitFor();
    await row(admin, `brand-row-${BRAND}`).waitFor();
    await screenshot(admin, 'admin-brands');
    await admin.getByLabel('Search brands').fill('nord');
    await admin.waitForFunction(() => document.querySelectorAll('[data-testid^="brand-row-"]').length === 1);
    await admin.getByLabel('Search brands').fill('zzz');
    await admin.getByText('No brands found.').waitFor();
    await admin.getByLabel('Clear search').click();
    const editCount = await admin.getByTestId(`brand-${BRAND}-edit-count`).innerText();

    await admin.getByTestId(`brand-permissions-${BRAND}`).click();
    const dialog = admin.getByTestId('brand-permissions-dialog').getByRole('dialog');
    await dialog.getByTestId('brand-permissions-name').waitFor();
    await dialog.getByTestId('brand-tab-edit').click();
    const editBox = dialog.getByTestId('brand-user-edit-editor@example.com');
    expect(await editBox.isChecked()).toBe(false);
    await editBox.check();
    await dialog.getByTestId('brand-tab-view').click();
    const viewBox = dialog.getByTestId('brand-user-view-editor@example.com');
    expect(await viewBox.isChecked()).toBe(true);
    expect(await viewBox.isDisabled()).toBe(true);
    await screenshot(admin, 'admin-brand-permissions');
    await dialog.getByTestId('brand-permissions-save').click();
    await notification(admin, 'Grants updated correctly').waitFor();
    await admin.waitForFunction(
      ([id, before]) => document.querySelector(`[data-testid="${id}"]`)?.textContent !== before,
      [`brand-${BRAND}-edit-count`, editCount] as const,
    );

    // The user's side shows the same grants.
    const users = await pageApi<{ email: string; grants: { grantType: string; grantCode: string; permissionType: string }[] }[]>(admin, 'GET', '/user/');
    const editorGrants = users.body.find((u) => u.email === 'editor@example.com')!.grants;
    expect(editorGrants.filter((g) => g.grantType === 'brand' && g.grantCode === BRAND).map((g) => g.permissionType).sort()).toEqual(['edit', 'view']);

    // Grants are read on every call: the editor's next call may edit the brand's module.
    const grants = await pageApi<{ obj: { roles: { types: string[]; brands: string[] }[] } }>(editor, 'GET', '/authorization/grant');
    expect(grants.body.obj.roles.find((g) => g.types.includes('edit'))!.brands).toContain(BRAND);
    expect((await lock()).acquired).toBe(true);
    expect((await details()).releaseClosed).toBe(false);
  });

  it('closes the release: its months close and the module is read-only; re-opening restores both', async () => {
    await admin.goto('/backoffice/manageRelease');
    await admin.getByRole('heading', { name: 'Manage Releases' }).waitFor();
    const releaseRow = row(admin, `release-row-${RELEASE}`);
    await releaseRow.waitFor();
    expect(await admin.getByTestId('create-release').isDisabled()).toBe(true);
    // Publishing: disabled once published (the demo's R2027 is published to viewers, not to the front office).
    expect(await admin.getByTestId(`publish-viewer-${RELEASE}`).isDisabled()).toBe(true);
    expect(await admin.getByTestId('publish-fo-R2026').isDisabled()).toBe(true);
    expect(await admin.getByTestId(`publish-fo-${RELEASE}`).isEnabled()).toBe(true);
    await admin.getByTestId(`publish-fo-${RELEASE}`).click();
    await admin.getByText(`Are you sure you want to publish the release ${RELEASE} to the front office?`).waitFor();
    await admin.getByRole('button', { name: 'No', exact: true }).click();
    await admin.getByText(`Are you sure you want to publish the release ${RELEASE} to the front office?`).waitFor({ state: 'hidden' });

    await releaseRow.getByRole('button', { name: 'Expand row' }).click();
    await admin.getByTestId(`release-months-${RELEASE}`).waitFor();
    expect(await admin.getByTestId(`month-${MONTH}`).innerText()).toContain('Open');
    await screenshot(admin, 'admin-releases');

    await segment(admin, 'Status', 'CLOSED').click();
    await releaseRow.waitFor({ state: 'detached' });
    await row(admin, 'release-row-R2026').waitFor();
    await segment(admin, 'Status', 'All').click();

    await admin.getByTestId(`close-${RELEASE}`).click();
    await admin.getByText(`Are you sure you want to close the release ${RELEASE}?`).waitFor();
    await screenshot(admin, 'admin-release-close-confirm');
    await admin.getByRole('button', { name: 'Yes', exact: true }).click();
    await notification(admin, `The release ${RELEASE} has been closed`).waitFor();
    await releaseRow.getByText('CLOSED', { exact: true }).waitFor();
    await admin.getByTestId(`reopen-${RELEASE}`).waitFor();
    expect(await admin.getByTestId(`month-${MONTH}`).innerText()).toContain('Closed');
    expect(await admin.getByTestId('create-release').isEnabled()).toBe(true);
    await screenshot(admin, 'admin-releases-closed');

    // With no release open, a new one may be created: the dialog shows the months it would open (not created here).
    await admin.getByTestId('create-release').click();
    const idInput = admin.getByTestId('new-release-id');
    await idInput.fill('R2026');
    await admin.getByText('The release R2026 already exists.').waitFor();
    await idInput.fill('R2028');
    await admin.getByText('01/2028 – 12/2028').waitFor();
    expect(await admin.getByRole('button', { name: 'Create', exact: true }).isEnabled()).toBe(true);
    await screenshot(admin, 'admin-release-create');
    await admin.getByRole('button', { name: 'Cancel', exact: true }).click();
    await idInput.waitFor({ state: 'hidden' });

    // The module is read-only now, for its editor too.
    expect((await details()).releaseClosed).toBe(true);
    const save = await pageApi<{ error: string }>(editor, 'POST', '/module/save', moduleKey);
    expect(save.status).toBe(422);
    expect(save.body.error).toBe('releaseClosed');

    await admin.getByTestId(`reopen-${RELEASE}`).click();
    await admin.getByText(`Are you sure you want to re-open the release ${RELEASE}?`).waitFor();
    await admin.getByRole('button', { name: 'Yes', exact: true }).click();
    await notification(admin, `The release ${RELEASE} has been re-opened`).waitFor();
    await releaseRow.getByText('OPEN', { exact: true }).waitFor();
    expect(await admin.getByTestId(`month-${MONTH}`).innerText()).toContain('Open');
    expect((await details()).releaseClosed).toBe(false);
    expect((await lock()).acquired).toBe(true);
    await pageApi(editor, 'POST', '/module/unlock', [moduleKey]);
  });

  it('takes the brand back: edit first, then view', async () => {
    await admin.goto('/backoffice/manageBrand');
    await admin.getByTestId(`brand-permissions-${BRAND}`).click();
    const dialog = admin.getByTestId('brand-permissions-dialog').getByRole('dialog');
    await dialog.getByTestId('brand-tab-edit').click();
    await dialog.getByTestId('brand-user-edit-editor@example.com').uncheck();
    await dialog.getByTestId('brand-tab-view').click();
    await dialog.getByTestId('brand-user-view-editor@example.com').uncheck();
    await dialog.getByTestId('brand-permissions-save').click();
    await notification(admin, 'Grants updated correctly').waitFor();
    expect((await lock()).acquired).toBe(false);
  });
});

describe('non-administrators', () => {
  it('see a notice instead of the screens, and the server refuses their calls', async () => {
    const page = await newPage('viewer');
    for (const [path, title] of [
      ['/backoffice/manageUser', 'Manage Users'],
      ['/backoffice/manageBrand', 'Manage Brands'],
      ['/backoffice/manageRelease', 'Manage Releases'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: title }).waitFor();
      await page.getByTestId('admin-only').waitFor();
    }
    await screenshot(page, 'admin-only-notice');
    for (const [method, path] of [
      ['GET', '/user/'],
      ['GET', '/brand/allBrandsWithUsers'],
      ['GET', '/release/all'],
      ['POST', '/release/changeStatus'],
    ] as const) {
      const answer = await pageApi<{ error: string }>(page, method, path, method === 'POST' ? { releaseId: RELEASE, action: 'close' } : undefined);
      expect(answer.status, path).toBe(403);
      expect(answer.body.error).toBe('forbidden');
    }
  });
});
