/**
 * The two editors by keyboard only, and what a screen reader hears (issue 34): on the module page M and Delete
 * keep the focus on the SKU tile (in its new area), the cluster page's Remove / Restore keep it on the module
 * chip; tiles and chips show a focus ring; Tab reaches every action of a card and of the page; a keyboard drag
 * (Space, arrows, Space / Escape) is announced by dnd-kit's live region in product words — the SKU's model,
 * colour and size, the area and the module label, the module and the cluster's label and month — never ids.
 * Nothing is saved: each test leaves its page (the locks are given back).
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMonthId } from '@bo/shared/months';
import { pageApiCall } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { editorTargets, type EditorTargets } from './helpers/routes';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let t: EditorTargets;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await loginAs(page, 'admin');
  t = await editorTargets(page, context);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** What dnd-kit's live region says now. */
const spoken = () => page.locator('[id^="DndLiveRegion-"]').first().innerText();
/** dnd-kit's keyboard sensor listens for the next key from the following tick on: pause like a person. */
async function press(key: string) {
  await page.keyboard.press(key);
  await page.waitForTimeout(200);
}
/** The focused element's own description: the SKU tile or module chip it is, and its focus ring. */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const style = el ? getComputedStyle(el) : null;
    return {
      upc: el?.querySelector('[data-testid="sku-tile"]')?.getAttribute('data-upc') ?? null,
      area: el?.closest('[data-testid^="area-"]')?.getAttribute('data-testid') ?? null,
      chip: el?.querySelector('[data-testid="module-chip"]')?.getAttribute('data-module') ?? null,
      chipArea: el?.closest('[data-testid="cluster-modules"], [data-testid="cluster-bin"]')?.getAttribute('data-testid') ?? null,
      ring: style ? `${style.outlineStyle} ${style.outlineWidth}` : '',
    };
  });
/** Tabs `presses` times from the top of the page: each focused control's name and whether its focus shows. */
async function tabWalk(presses: number): Promise<Map<string, 'ring' | 'no ring'>> {
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  const seen = new Map<string, 'ring' | 'no ring'>();
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    // Mantine's fields change their border colour in a 100 ms transition: read it once it has ended.
    if (await page.evaluate(() => !!document.activeElement?.matches('input, textarea, select'))) await page.waitForTimeout(180);
    const f = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      const name = (el.getAttribute('aria-label') ?? el.innerText ?? '').trim().replace(/\s+/g, ' ').slice(0, 60) || `<${el.tagName.toLowerCase()} ${el.getAttribute('type') ?? ''}>`;
      // Buttons and tiles: an outline. Mantine's text fields and selects: their border turns the primary colour.
      const probe = document.body.appendChild(document.createElement('div'));
      probe.style.color = 'var(--mantine-primary-color-filled)';
      const primary = getComputedStyle(probe).color;
      probe.remove();
      // A multi-select's pills: the field's box around the input turns the primary colour.
      const box = (el.matches('input, textarea, select') && el.closest<HTMLElement>('.mantine-Input-input')) || el;
      const field = el.matches('input, textarea, select') && getComputedStyle(box).borderTopColor === primary;
      return { name, ring: (s.outlineStyle !== 'none' && s.outlineWidth !== '0px') || field };
    });
    if (f && !seen.has(f.name)) seen.set(f.name, f.ring ? 'ring' : 'no ring');
  }
  return seen;
}
const INTERNAL = /sku::|area::|cluster:|bin:|\|M\d\d_\d{4}|M\d\d_\d{4}/;

describe('the editors by keyboard, as a screen reader hears them', { timeout: 180_000 }, () => {
  it('module page: M and Delete keep the focus on the SKU tile, with a visible ring', async () => {
    await page.goto(`/backoffice/module?moduleName=${encodeURIComponent(t.module.moduleName)}&monthId=${t.monthId}`);
    const card = page.locator(`[data-testid="module-card"][data-module="${t.module.moduleName}"]`);
    await card.locator('[data-testid="sku-tile"]').first().waitFor();
    const from = (await card.locator('[data-testid="area-MH"] [data-testid="sku-tile"]').count()) > 0 ? 'MH' : 'EL';
    const to = from === 'MH' ? 'EL' : 'MH';
    const first = card.locator(`[data-testid="area-${from}"] [data-testid="sku-tile"]`).first();
    const upc = await first.getAttribute('data-upc');
    await first.locator('..').focus();
    await press('m');
    await card.locator(`[data-testid="area-${to}"] [data-testid="sku-tile"][data-upc="${upc}"]`).waitFor();
    expect(await focused()).toMatchObject({ upc, area: `area-${to}`, ring: 'solid 2px' });
    await press('Delete');
    await card.locator(`[data-testid="area-BIN"] [data-testid="sku-tile"][data-upc="${upc}"]`).waitFor();
    expect(await focused()).toMatchObject({ upc, area: 'area-BIN', ring: 'solid 2px' });
    await screenshot(page, 'keyboard-module-tile-focus');
    // Its ⋮ menu (which also holds 'SKU information': the picture's shortcut is for the pointer) keeps the focus on it too.
    await card.locator(`[data-testid="area-BIN"] [data-testid="sku-tile"][data-upc="${upc}"]`).getByRole('button', { name: `Actions for ${upc}` }).click();
    await page.getByRole('menuitem', { name: 'Restore as Eligible' }).click();
    await card.locator(`[data-testid="area-EL"] [data-testid="sku-tile"][data-upc="${upc}"]`).waitFor();
    await page.waitForTimeout(300);
    expect(await focused()).toMatchObject({ upc, area: 'area-EL' });
  });

  it('module page: a keyboard drag is announced with the SKU, the area and the module label', async () => {
    const modules = await pageApiCall<{ moduleName: string; moduleLabel: string }[]>(page, context, 'POST', '/module/filtered', { monthId: [t.monthId], brand: [t.brand] });
    const label = modules.find((m) => m.moduleName === t.module.moduleName)!.moduleLabel;
    const card = page.locator(`[data-testid="module-card"][data-module="${t.module.moduleName}"]`);
    const tile = card.locator('[data-testid="area-EL"] [data-testid="sku-tile"]').first();
    const group = tile.locator('..');
    const name = (await group.getAttribute('aria-label'))!.replace(/ \((MH|EL|BIN)\)$/, '');
    expect(name).toMatch(/^\S+ \S+ \S+$/); // model colour size
    const instructions = await page.locator(`#${await group.getAttribute('aria-describedby')}`).innerText();
    expect(instructions).toContain('To pick up a SKU, press Space or Enter');
    await group.focus();
    await press('Space');
    expect(await spoken()).toBe(`${name} picked up from Eligible of ${label}.`);
    await press('ArrowDown');
    const moved = await spoken();
    expect(moved).toMatch(new RegExp(`^${name} moved to (Must Have|Eligible|Removed) of .+\\.$`));
    await screenshot(page, 'keyboard-module-drag');
    await press('Escape');
    expect(await spoken()).toBe(`Moving cancelled. ${name} stays in Eligible of ${label}.`);
    // Space, arrow, Space: dropped, in the same words.
    await group.focus();
    await press('Space');
    await press('ArrowUp');
    await press('Space');
    expect(await spoken()).toMatch(new RegExp(`^${name} dropped in (Must Have|Eligible|Removed) of .+\\.$`));
    for (const text of [moved, await spoken()]) expect(text).not.toMatch(INTERNAL);
  });

  it('a disabled button keeps its tab stop and shows its reason on keyboard focus', async () => {
    await page.goto(`/backoffice/module?moduleName=${encodeURIComponent(t.module.moduleName)}&monthId=${t.monthId}`);
    await page.locator('[data-testid="sku-tile"]').first().waitFor();
    const redo = page.getByRole('button', { name: 'Redo', exact: true });
    expect(await redo.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Undo', exact: true }).focus();
    await page.keyboard.press('Tab'); // the keyboard's way in: Tab from Undo lands on the disabled Redo
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Redo');
    const tooltip = page.getByRole('tooltip', { name: 'Nothing to redo' });
    await tooltip.waitFor();
    expect(await tooltip.innerText()).toBe('Nothing to redo');
    expect(await redo.getAttribute('aria-description')).toBe('Nothing to redo');
    await screenshot(page, 'keyboard-disabled-reason');
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'hidden' });
  });

  it('module page: Tab reaches the page, panel, card and tile actions, each with a focus ring', async () => {
    const seen = await tabWalk(120);
    const names = [...seen.keys()];
    for (const want of [/^Create Module$/, /^Modules$/, /^Save all/, /^Copy all$/, /^Performance$/, /^History$/, /^Module description$/, /^Actions for /, /\((MH|EL)\)$/]) {
      expect(names.some((n) => want.test(n)), `${want} reached by Tab in ${names.join(' | ')}`).toBe(true);
    }
    expect([...seen].filter(([, ring]) => ring === 'no ring').map(([n]) => n)).toEqual([]);
    await page.goto('/backoffice/');
  });

  it('module page: M keeps the focus on a tile that lands in a long area, in a row not drawn yet', async () => {
    // A module with 26+ Eligible tiles (an area of more than 24 draws only the rows near the viewport) and a
    // Must Have tile that, in the page's default order (sell out, then model, colour, size, UPC), lands last in Eligible.
    interface Line {
      upc: string;
      model: string;
      color: string;
      size: string;
      sellOut: number | null;
      mustHave: boolean;
      moduleCompositionStatus: string;
    }
    const order = (a: Line, b: Line) =>
      (b.sellOut ?? -1) - (a.sellOut ?? -1) || a.model.localeCompare(b.model) || a.color.localeCompare(b.color) || a.size.localeCompare(b.size) || a.upc.localeCompare(b.upc);
    const months = await pageApiCall<{ monthId: string; open: boolean }[]>(page, context, 'GET', '/month/all');
    const brands = await pageApiCall<{ brandCode: string }[]>(page, context, 'GET', '/brand/all');
    let target: { moduleName: string; monthId: string; upc: string; eligible: number } | null = null;
    search: for (const month of months.filter((m) => m.open)) {
      for (const brand of brands) {
        const list = await pageApiCall<{ moduleName: string; monthId: string; elLength: number; locked: boolean }[]>(page, context, 'POST', '/module/filtered', { monthId: [month.monthId], brand: [brand.brandCode] });
        for (const item of list.filter((i) => i.elLength >= 26 && !i.locked)) {
          const [full] = await pageApiCall<{ productDtoList: Line[] }[]>(page, context, 'POST', '/module/details', [{ moduleName: item.moduleName, monthId: item.monthId }]);
          const active = full!.productDtoList.filter((l) => l.moduleCompositionStatus !== 'REMOVED');
          const eligible = active.filter((l) => !l.mustHave);
          const last = [...active].sort(order).at(-1)!;
          if (last.mustHave && eligible.length > 24) {
            target = { moduleName: item.moduleName, monthId: item.monthId, upc: last.upc, eligible: eligible.length };
            break search;
          }
        }
      }
    }
    expect(target, 'the demo data has a module with a long Eligible area and a Must Have tile that sorts last').not.toBeNull();
    const { moduleName, monthId, upc, eligible } = target!;
    await page.setViewportSize({ width: 1280, height: 560 });
    try {
      await page.goto(`/backoffice/module?moduleName=${encodeURIComponent(moduleName)}&monthId=${monthId}`);
      const card = page.locator(`[data-testid="module-card"][data-module="${moduleName}"]`);
      const tile = card.locator(`[data-testid="area-MH"] [data-testid="sku-tile"][data-upc="${upc}"]`);
      await tile.waitFor();
      // Not every Eligible row is drawn: the tile's place at the end of the area is not in the page yet.
      expect(await card.locator('[data-testid="area-EL"] [data-testid="sku-tile"]').count()).toBeLessThan(eligible);
      await tile.locator('..').focus();
      await press('m');
      await card.locator(`[data-testid="area-EL"] [data-testid="sku-tile"][data-upc="${upc}"]`).waitFor({ timeout: 5000 });
      expect(await focused()).toMatchObject({ upc, area: 'area-EL', ring: 'solid 2px' });
      await screenshot(page, 'keyboard-module-tile-focus-long-area');
      await press('m'); // back to Must Have: nothing is saved (the page is left without saving)
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('cluster page, Massive Edit and the areas: Tab reaches their actions, each with a visible focus', async () => {
    const cluster = `/cluster?clusterId=${encodeURIComponent(t.cluster.clusterId)}&monthId=${t.monthId}`;
    const screens: [string, string | RegExp, RegExp[]][] = [
      [cluster, t.cluster.clusterId, [/^COPY$/, /^History$/, /^Description of /, /^LIA of /, /^Client classification of /, /^Remove /, /^Open .+ in a new tab$/, /\(.+\)$/]],
      ['/massive-edit-wi', /MODULE/, []],
      ['/pending-area', 'Please select at least one filter.', []],
      ['/disco-remove-area', 'Disco Area', []],
      ['/deletion-area', /Restore Selected/, [/^Restore Selected/]],
    ];
    const problems: string[] = [];
    for (const [url, text, wanted] of screens) {
      await page.goto(`/backoffice${url}`);
      await page.getByText(text).first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(400);
      const seen = await tabWalk(60);
      const names = [...seen.keys()];
      for (const want of wanted) if (!names.some((n) => want.test(n))) problems.push(`${url}: ${want} not reached by Tab (${names.join(' | ')})`);
      const hidden = [...seen].filter(([, ring]) => ring === 'no ring').map(([n]) => n);
      if (hidden.length) problems.push(`${url}: no visible focus on ${hidden.join(', ')}`);
    }
    await page.goto('/backoffice/');
    expect(problems).toEqual([]);
  });

  it('cluster page: Remove and Restore keep the focus on the module chip; a keyboard drag speaks labels and month', async () => {
    const clusters = await pageApiCall<{ clusterId: string; clusterLabel: string }[]>(page, context, 'POST', '/cluster/filtered', { monthId: [t.monthId], brand: [t.brand] });
    const cluster = clusters.find((c) => c.clusterId === t.cluster.clusterId)!;
    await page.goto(`/backoffice/cluster?clusterId=${encodeURIComponent(t.cluster.clusterId)}&monthId=${t.monthId}`);
    const block = page.locator(`[data-testid="cluster-block"][data-cluster="${t.cluster.clusterId}"]`);
    const chip: Locator = block.locator('[data-testid="cluster-modules"] [data-testid="module-chip"]').first();
    await chip.waitFor();
    const moduleName = (await chip.getAttribute('data-module'))!;
    const moduleLabel = (await chip.locator('p').first().innerText()).trim();
    await chip.getByRole('button', { name: `Remove ${moduleName}` }).focus();
    await press('Enter');
    await block.locator(`[data-testid="cluster-bin"] [data-testid="module-chip"][data-module="${moduleName}"]`).waitFor();
    expect(await focused()).toMatchObject({ chip: moduleName, chipArea: 'cluster-bin', ring: 'solid 2px' });
    await screenshot(page, 'keyboard-cluster-chip-focus');
    await block.locator(`[data-testid="cluster-bin"] [data-testid="module-chip"][data-module="${moduleName}"]`).getByRole('button', { name: `Restore ${moduleName}` }).focus();
    await press('Enter');
    await block.locator(`[data-testid="cluster-modules"] [data-testid="module-chip"][data-module="${moduleName}"]`).waitFor();
    expect(await focused()).toMatchObject({ chip: moduleName, chipArea: 'cluster-modules' });

    const where = `${cluster.clusterLabel} ${formatMonthId(t.monthId)}`;
    await press('Space');
    expect(await spoken()).toBe(`${moduleLabel} picked up from the modules of ${where}.`);
    // The arrows jump from area to area: the chip's cluster's removed modules come next (below the
    // fold, dnd-kit scrolls the page there smoothly: the announcement follows the scroll, and may say
    // 'no longer over an area' while the page is still scrolling on a loaded machine).
    await press('ArrowDown');
    await expect.poll(spoken, { timeout: 5000 }).toBe(`${moduleLabel} moved to the removed modules of ${where}.`);
    const moved = await spoken();
    expect(moved).not.toMatch(INTERNAL);
    await screenshot(page, 'keyboard-cluster-drag');
    await press('Escape');
    expect(await spoken()).toBe(`Moving cancelled. ${moduleLabel} stays in the modules of ${where}.`);
    // Space, arrow, Space: dropped in the bin, said so, and the chip is there.
    await press('Space');
    await press('ArrowDown');
    await expect.poll(spoken, { timeout: 3000 }).toBe(`${moduleLabel} moved to the removed modules of ${where}.`);
    await press('Space');
    expect(await spoken()).toBe(`${moduleLabel} dropped in the removed modules of ${where}.`);
    await block.locator(`[data-testid="cluster-bin"] [data-testid="module-chip"][data-module="${moduleName}"]`).waitFor();
    await page.goto('/backoffice/');
  });
});
