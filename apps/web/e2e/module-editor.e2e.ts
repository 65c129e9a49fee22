/**
 * The module page (part 1 §2 Module editor, part 2 §2 Working Area) in real Chromium: pointer drags
 * through dnd-kit's sensors (mouse down, moves in steps, up), keyboard moves, save, publish, copy,
 * and a second user who finds the module locked.
 *
 * Uses modules no other browser test touches: Marea (MRA) best sellers of M09_2027, all WIP in an open month.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { dragTile } from './helpers/drag';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const MONTH = 'M09_2027';
const A = 'MRA_SUN_BEST_01';
const B = 'MRA_SUN_BEST_03';
const OTHER_COLLECTION = 'MRA_OPT_BEST_01';
const COPY_MONTH = 'M11_2027';
const PAGE = `/backoffice/module?modules=${A}|${MONTH},${B}|${MONTH},${OTHER_COLLECTION}|${MONTH}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

const card = (name: string) => page.locator(`[data-testid="module-card"][data-module="${name}"]`);
const area = (name: string, a: 'MH' | 'EL' | 'BIN') => card(name).locator(`[data-testid="area-${a}"]`);
const tile = (name: string, a: 'MH' | 'EL' | 'BIN', upc: string) => area(name, a).locator(`[data-testid="sku-tile"][data-upc="${upc}"]`);
const upcsIn = (name: string, a: 'MH' | 'EL' | 'BIN') =>
  area(name, a)
    .locator('[data-testid="sku-tile"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-upc') ?? ''));

const drag = (source: Locator, target: Locator) => dragTile(page, source, target);

/**
 * Answers the questions a save or publish may ask (description, count caution …) with the given
 * buttons until `done` shows up.
 */
async function answerUntil(done: Locator, answers: Record<string, string>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done.isVisible().catch(() => false)) return;
    for (const [question, button] of Object.entries(answers)) {
      const dialog = page.getByRole('dialog').filter({ hasText: question });
      // A dialog may be closing (its exit transition) when seen: a short click that may miss, then look again.
      if (await dialog.isVisible().catch(() => false)) {
        await dialog.getByRole('button', { name: button, exact: true }).click({ timeout: 2000 }).catch(() => undefined);
      }
    }
    await page.waitForTimeout(100);
  }
  await done.waitFor({ timeout: 1 });
}

const QUESTIONS = {
  'also to change the module description': 'No',
  'different number of SKUs': 'Proceed',
  'publish the changes on RPAS??': 'Yes',
};

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await page.setViewportSize({ width: 1600, height: 1500 });
  await loginAs(page, 'admin');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('module editor', () => {
  it('redirects to home without modules, and explains a module that does not exist', async () => {
    await page.goto('/backoffice/module');
    await page.waitForURL(/\/backoffice\/?$/);
    await page.goto(`/backoffice/module?moduleName=NOPE_NOPE&monthId=${MONTH}`);
    await page.getByTestId('empty-page').waitFor();
    expect(await page.getByTestId('empty-page').innerText()).toBe("We couldn't find the module you are looking for. There may have been a technical problem.");
  });

  it('opens three modules, locked by the user, special families first', async () => {
    await page.goto(PAGE);
    await card(A).waitFor();
    await card(B).waitFor();
    expect(await page.locator('[data-testid="module-card"]').count()).toBe(3);
    expect(await card(A).getByTestId('locked-by').count()).toBe(0);
    // Collapse the optical module: the two sun modules fit on the screen together.
    await card(OTHER_COLLECTION).getByRole('button', { name: 'Collapse module' }).click();
    await screenshot(page, 'module-editor-open');
  });

  it('moves a SKU from MH to EL by dragging', async () => {
    const [upc] = await upcsIn(A, 'MH');
    await drag(tile(A, 'MH', upc!), area(A, 'EL'));
    await tile(A, 'EL', upc!).waitFor();
    expect(await tile(A, 'MH', upc!).count()).toBe(0);
    expect(await card(A).getAttribute('data-edited')).toBe('true');
  });

  it('takes the pointer off the tiles only while a SKU is dragged (Escape gives it back)', async () => {
    const dragging = page.locator('[data-sku-drag]');
    const [upc] = await upcsIn(A, 'EL');
    const source = tile(A, 'EL', upc!);
    await source.scrollIntoViewIfNeeded();
    const pointer = () => source.evaluate((e) => getComputedStyle(e).pointerEvents);
    expect(await pointer()).toBe('auto');
    const s = (await source.boundingBox())!;
    await page.mouse.move(s.x + s.width / 2, s.y + s.height * 0.62);
    await page.mouse.down();
    await page.mouse.move(s.x + s.width / 2 + 30, s.y + s.height * 0.62 + 30, { steps: 4 });
    await dragging.waitFor();
    expect(await pointer()).toBe('none');
    await page.keyboard.press('Escape');
    await dragging.waitFor({ state: 'detached' });
    await page.mouse.up();
    expect(await pointer()).toBe('auto');
    expect(await tile(A, 'EL', upc!).count()).toBe(1);
  });

  it('bins a MH SKU and restores it as EL with the class warning', async () => {
    const [upc] = await upcsIn(A, 'MH');
    await drag(tile(A, 'MH', upc!), area(A, 'BIN'));
    await tile(A, 'BIN', upc!).waitFor();
    await drag(tile(A, 'BIN', upc!), area(A, 'EL'));
    await tile(A, 'EL', upc!).waitFor();
    await page.getByText('Attention! The SKU was MH before it was removed: it is restored as EL.').waitFor();
    await screenshot(page, 'module-editor-restore-warning');
  });

  it('adds a SKU to another module, refuses it twice and across collections', async () => {
    const inB = new Set([...(await upcsIn(B, 'MH')), ...(await upcsIn(B, 'EL'))]);
    const upc = (await upcsIn(A, 'EL')).find((u) => !inB.has(u))!;
    await drag(tile(A, 'EL', upc), area(B, 'MH'));
    await tile(B, 'MH', upc).waitFor();
    // Again: the spec's 'Error!' popup, naming the SKU as its tile does (model colour size); no change.
    const label = (await tile(B, 'MH', upc).locator('div[title]').first().getAttribute('title'))!;
    const before = await upcsIn(B, 'MH');
    await drag(tile(A, 'EL', upc), area(B, 'MH'));
    await page.getByText('The sku is already present').waitFor();
    await page.getByText(`${label} is already in this module`).waitFor();
    await screenshot(page, 'module-editor-duplicate');
    await page.getByRole('button', { name: 'Ok' }).click();
    expect(await upcsIn(B, 'MH')).toEqual(before);

    await card(OTHER_COLLECTION).getByRole('button', { name: 'Expand module' }).click();
    await drag(tile(A, 'EL', upc), area(OTHER_COLLECTION, 'MH'));
    await page.getByText('The starting module is different from the end module.').waitFor();
    await page.getByRole('button', { name: 'Ok' }).click();
    expect(await tile(OTHER_COLLECTION, 'MH', upc).count()).toBe(0);
    await card(OTHER_COLLECTION).getByRole('button', { name: 'Collapse module' }).click();
  });

  it('undoes and redoes with Ctrl+Z / Ctrl+Shift+Z', async () => {
    const before = await upcsIn(B, 'MH');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await upcsIn(B, 'MH')).length).toBe(before.length - 1);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await upcsIn(B, 'MH')).length).toBe(before.length);
  });

  it('asks before leaving with unsaved changes', async () => {
    // An in-app navigation: the user menu's BackOffice (home).
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'BackOffice' }).click();
    await page.getByText('Are you sure you want to leave this page? All changes will be lost').waitFor();
    await screenshot(page, 'module-editor-leave');
    await page.getByRole('button', { name: 'Stay' }).click();
    expect(page.url()).toContain('/module?');
  });

  it('saves both modules and finds the change after a reload', async () => {
    const movedToEl = (await upcsIn(A, 'EL'))[0]!;
    const addedToB = await upcsIn(B, 'MH');
    await page.getByRole('button', { name: /^Save all/ }).click();
    await answerUntil(page.getByText('MODULE/MODULES CORRECTLY SAVED').first(), QUESTIONS);
    expect(await card(A).getAttribute('data-edited')).toBeNull();
    await page.reload();
    await card(A).waitFor();
    await tile(A, 'EL', movedToEl).waitFor();
    expect((await upcsIn(B, 'MH')).sort()).toEqual(addedToB.sort());
  });

  it('shows the module read-only, with the owner, to a second user', async () => {
    const second = await openPage(browser);
    try {
      await loginAs(second.page, 'creator');
      await second.page.goto(`/backoffice/module?moduleName=${A}&monthId=${MONTH}`);
      const other = second.page.locator(`[data-testid="module-card"][data-module="${A}"]`);
      await other.waitFor();
      await other.getByText('admin is editing the module').first().waitFor();
      expect(await other.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
      expect(await other.getByRole('button', { name: 'Save & Publish' }).isDisabled()).toBe(true);
      await screenshot(second.page, 'module-editor-read-only');
    } finally {
      await second.context.close();
    }
  });

  it('publishes and follows the submission to SUBMITTED', async () => {
    await card(B).getByRole('button', { name: 'Save & Publish' }).click();
    const question = page.getByText('Are you sure you want to publish the changes on RPAS??');
    await answerUntil(question, { 'also to change the module description': 'No', 'different number of SKUs': 'Proceed' });
    await screenshot(page, 'module-editor-publish-question');
    await answerUntil(page.getByText('The submission process has been started').first(), QUESTIONS);
    await expect.poll(() => card(B).getAttribute('data-status'), { timeout: 20_000, interval: 250 }).toBe('SUBMITTED');
    await screenshot(page, 'module-editor-submitted');
  });

  it('copies a module to another month and opens it there', async () => {
    const el = (await upcsIn(A, 'EL')).sort();
    await card(A).getByRole('button', { name: 'Copy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('11/2027').check();
    await screenshot(page, 'module-editor-copy');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByText(`Copied module/cluster ${A} for the months: 11/2027`).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page.goto(`/backoffice/module?moduleName=${A}&monthId=${COPY_MONTH}`);
    await card(A).waitFor();
    expect((await upcsIn(A, 'EL')).sort()).toEqual(el);
    await screenshot(page, 'module-editor-copied');
  });

  it('shows the SKU information with the 360 view, and the performance popup', async () => {
    await page.goto(`/backoffice/module?moduleName=${A}&monthId=${MONTH}`);
    await card(A).waitFor();
    const first = area(A, 'MH').locator('[data-testid="sku-tile"]').first();
    await first.getByRole('button', { name: /^Information on/ }).click();
    await page.getByTestId('sku-360').waitFor();
    await page.getByRole('button', { name: 'Side view' }).click();
    // No blank value: an empty field (GED expiry, SAP status …) reads as a dash.
    const values = await page.getByRole('dialog').locator('table td:nth-child(2)').allInnerTexts();
    expect(values.length).toBeGreaterThan(10);
    expect(values.filter((v) => v.trim() === '')).toEqual([]);
    await screenshot(page, 'module-editor-sku-info');
    await page.keyboard.press('Escape');
    await card(A).getByRole('button', { name: 'Performance' }).click();
    await page.getByTestId('performance-table').or(page.getByTestId('performance-empty')).first().waitFor();
    await screenshot(page, 'module-editor-performance');
    await page.keyboard.press('Escape');
  });

  it('moves a SKU with the keyboard only (Space, arrow, Space) and toggles with M', async () => {
    await page.goto(`/backoffice/module?moduleName=${A}&monthId=${MONTH}`);
    await card(A).waitFor();
    const [upc] = await upcsIn(A, 'MH');
    const source = tile(A, 'MH', upc!).locator('..');
    await source.focus();
    // dnd-kit's keyboard sensor listens for the next keys from the following tick on: pause like a person.
    await page.keyboard.press('Space');
    await page.waitForTimeout(150);
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(150);
    await page.keyboard.press('Space');
    await tile(A, 'EL', upc!).waitFor();
    await tile(A, 'EL', upc!).locator('..').focus();
    await page.keyboard.press('m');
    await tile(A, 'MH', upc!).waitFor();
  });

  it('moves a SKU with its ⋮ menu', async () => {
    const [upc] = await upcsIn(A, 'EL');
    await tile(A, 'EL', upc!).getByRole('button', { name: `Actions for ${upc}` }).click();
    await page.getByRole('menuitem', { name: 'Move to Must Have (MH)' }).click();
    await tile(A, 'MH', upc!).waitFor();
    expect(await tile(A, 'EL', upc!).count()).toBe(0);
  });

  it('shows the cluster analysis and searches active SKUs', async () => {
    await page.getByRole('button', { name: 'Cluster Analysis' }).click();
    await page.getByTestId('panel-analysis').waitFor();
    await page.waitForTimeout(1200);
    await screenshot(page, 'module-editor-cluster-analysis');
    await page.getByRole('button', { name: 'Active SKUs' }).click();
    const panel = page.getByTestId('panel-active');
    await panel.getByText('Filter to start searching').waitFor();
    expect(await panel.getByRole('button', { name: 'Search' }).isDisabled()).toBe(true);
    await panel.getByLabel('Model').fill('MR');
    await panel.getByLabel('Brand', { exact: true }).click();
    await page.getByRole('option', { name: 'Marea' }).click();
    await panel.getByLabel('Collection', { exact: true }).click();
    await page.getByRole('option', { name: 'Sunglasses' }).click();
    await panel.getByRole('button', { name: 'Search' }).click();
    await panel.getByTestId('sku-tile').first().waitFor();
    // The virtualised rows are measured: each starts below the one before (no overlap).
    await page.waitForTimeout(300);
    const boxes = await panel.getByTestId('active-sku-row').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect()).map((b) => ({ top: b.top, bottom: b.bottom })));
    expect(boxes.length).toBeGreaterThan(1);
    boxes.sort((a, b) => a.top - b.top);
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom - 0.5);
    await screenshot(page, 'module-editor-active-skus');
  });

  it('creates a module with the home form and adds it to the page, locked', async () => {
    await page.goto(`/backoffice/module?moduleName=${A}&monthId=${MONTH}`);
    await card(A).waitFor();
    await page.getByTestId('create-module').click();
    const modal = page.getByTestId('create-module-modal').locator('.mantine-Modal-content');
    await modal.waitFor();
    // Family, brand, collection and zones come from the page's module: a name and a label are enough.
    const name = `MRA_SUN_E2E_${String(Date.now()).slice(-6)}`;
    await modal.getByTestId('module-name').fill(name);
    await modal.getByTestId('module-label').fill(`Marea Sun E2E ${name.slice(-6)}`);
    await modal.getByTestId('submit-module').click();
    await card(name).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('searched').innerText()).toContain('2 modules');
    expect(await card(name).getByTestId('module-status').innerText()).toBe('WIP');
    expect(await card(name).getByTestId('read-only-reason').count()).toBe(0);
    await screenshot(page, 'module-editor-created');
  });

  it('exports the page as a spreadsheet and as a PDF (downloads)', async () => {
    await page.goto(`/backoffice/module?moduleName=${A}&monthId=${MONTH}`);
    await card(A).waitFor();
    await page.getByTestId('export-module').click();
    const modal = page.getByTestId('export-modal').locator('.mantine-Modal-content');
    await modal.waitFor();
    const start = modal.getByTestId('export-start');
    expect(await start.isDisabled()).toBe(true);
    await modal.getByText('XLS', { exact: true }).click();
    // XLS needs a template before EXPORT is enabled.
    expect(await start.isDisabled()).toBe(true);
    await modal.getByTestId('export-template').click();
    await page.getByRole('option', { name: 'Module standard' }).click();
    await screenshot(page, 'module-editor-export');
    const [xlsx] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), start.click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const bytes = readFileSync((await xlsx.path())!);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await modal.waitFor({ state: 'hidden' });

    await page.getByTestId('export-module').click();
    await modal.waitFor();
    await modal.getByText('PDF', { exact: true }).click();
    expect(await start.isDisabled()).toBe(false);
    const [pdf] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), start.click()]);
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    expect(readFileSync((await pdf.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('filters the cards and reorders them by dragging rows of the Modules panel (pointer and keyboard)', async () => {
    await page.goto(PAGE);
    await card(A).waitFor();
    await card(B).waitFor();
    await page.getByRole('button', { name: 'Modules', exact: true }).click();
    const panel = page.getByTestId('panel-modules');
    await panel.getByLabel('Filter modules').fill('opt');
    await page.locator('[data-testid="module-card"]').first().waitFor();
    expect(await page.locator('[data-testid="module-card"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-module')))).toEqual([OTHER_COLLECTION]);
    expect(await page.getByTestId('searched').innerText()).toContain('(1 shown)');
    expect(await panel.getByTestId('modules-shown').innerText()).toBe('1 of 3 shown');
    await panel.getByLabel('Filter modules').fill('');
    await card(A).waitFor();

    // Drag the last row to the top: the cards follow, and the order becomes the custom one.
    const rowNames = () => panel.getByTestId('modules-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-module')));
    const before = await rowNames();
    const last = before.at(-1)!;
    const grip = panel.getByRole('button', { name: `Move ${last}` });
    const firstRow = panel.getByTestId('modules-row').first();
    const g = (await grip.boundingBox())!;
    const f = (await firstRow.boundingBox())!;
    await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
    await page.mouse.down();
    await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2 - 6, { steps: 3 });
    await page.mouse.move(g.x + g.width / 2, f.y + 2, { steps: 12 });
    await page.waitForTimeout(100);
    await page.mouse.up();
    await expect.poll(rowNames).toEqual([last, ...before.slice(0, -1)]);
    await expect.poll(() => page.locator('[data-testid="module-card"]').first().getAttribute('data-module')).toBe(last);
    expect(await page.locator('input[aria-label="Order modules by"]').inputValue()).toBe('Custom (dragged)');
    await screenshot(page, 'module-editor-modules-panel');

    // The keyboard alternative: Space on a grip lifts the row, an arrow moves it, Space drops it.
    const second = (await rowNames())[1]!;
    await panel.getByRole('button', { name: `Move ${second}` }).focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(150);
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(150);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await rowNames())[0]).toBe(second);
    await expect.poll(() => page.locator('[data-testid="module-card"]').first().getAttribute('data-module')).toBe(second);
  });

  it('applies the page performance filters to the Active SKUs search', async () => {
    await page.goto(`/backoffice/module?moduleName=${A}&monthId=${MONTH}`);
    await card(A).waitFor();
    await page.getByTestId('performance-filters').click();
    const filters = page.getByTestId('performance-filters-panel');
    await filters.locator('.mantine-MultiSelect-root').filter({ hasText: 'Stars zone' }).locator('.mantine-MultiSelect-input').click();
    await filters.getByRole('option', { name: 'EU', exact: true }).click();
    await screenshot(page, 'module-editor-performance-filters');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('performance-filters').innerText()).toContain('1');
    await page.getByRole('button', { name: 'Active SKUs' }).click();
    const panel = page.getByTestId('panel-active');
    await panel.getByTestId('active-performance-note').waitFor();
    await panel.getByLabel('Brand', { exact: true }).click();
    await page.getByRole('option', { name: 'Marea' }).click();
    await panel.getByLabel('Collection', { exact: true }).click();
    await page.getByRole('option', { name: 'Sunglasses' }).click();
    await panel.getByRole('button', { name: 'Search' }).click();
    await panel.getByTestId('sku-tile').first().or(panel.getByText('No search results')).first().waitFor();
  });

  it('opens from the early calls: the lock and modules sent once, the early script cached, the popups’ lists only when opened', async () => {
    const sent: string[] = [];
    const earlyScripts: { url: string; cacheControl: string | undefined }[] = [];
    const onRequest = (r: { method(): string; url(): string }) => sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    const onResponse = (r: { url(): string; headers(): Record<string, string> }) => {
      if (new URL(r.url()).pathname.includes('early-calls')) earlyScripts.push({ url: new URL(r.url()).pathname, cacheControl: r.headers()['cache-control'] });
    };
    page.on('request', onRequest);
    page.on('response', onResponse);
    try {
      await page.goto(`/backoffice/module?moduleName=${A}&monthId=${MONTH}`);
      await card(A).getByTestId('sku-tile').first().waitFor();
      const count = (call: string) => sent.filter((s) => s === call).length;
      // The page's own calls were the early script's (public/early-calls.js): the API client took them.
      expect(count('POST /api/module/modules')).toBe(1);
      expect(count('POST /api/module/lock')).toBe(1);
      // index.html names the early script by its content, under assets/ (cached for ever, not revalidated).
      expect(earlyScripts.map((s) => s.url)).toEqual([expect.stringMatching(/^\/backoffice\/assets\/early-calls-[0-9a-f]{10}\.js$/)]);
      expect(earlyScripts[0]!.cacheControl).toContain('immutable');
      // The Import and Create popups ask for their lists when opened, not with the page's modules.
      expect(count('GET /api/month/all')).toBe(0);
      expect(count('GET /api/cluster/initialFilters')).toBe(0);
      await page.getByRole('button', { name: 'Import Module' }).click();
      const months = page.getByRole('dialog').getByLabel('Month');
      await expect.poll(() => months.inputValue()).toMatch(/\S/);
      expect(count('GET /api/month/all')).toBe(1);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    } finally {
      page.off('request', onRequest);
      page.off('response', onResponse);
    }
  });
});
