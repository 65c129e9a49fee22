/**
 * Statistics (/statistics; part 2 §2, §5, §8) in real Chromium on the demo data: reached from home with a
 * month and a brand; Search and Reset all wait for a moved slider; two sliders moved and searched give
 * the clusters the server computes for the same filters; a cluster locked by another user is disabled;
 * a free one is locked and opened on /cluster; impossible ranges show the empty text. The locks taken
 * are released at the end.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatMonthId } from '@bo/shared/months';
import { STATISTICS_TEXTS, type StatisticCluster, type StatisticFilter, type StatisticFilterOptions } from '@bo/shared/statistics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const MONTH = 'M03_2027';
const BRAND = 'AUR';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminToken: string;
let creatorToken: string;
const taken: { token: () => string; key: { clusterId: string; monthId: string } }[] = [];

const settle = () => page.waitForTimeout(350);

async function pick(testId: string, name: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name }).first().click();
  if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
}

/** Presses keys on one thumb of a value's slider ('from' or 'to'). */
async function nudge(label: string, thumb: 'from' | 'to', ...keys: string[]) {
  const handle = page.getByRole('slider', { name: `${label} ${thumb}`, exact: true });
  await handle.focus();
  for (const key of keys) await handle.press(key);
}

/** Drags one thumb of a value's slider with the mouse to a share of the track (0 … 1; past the ends clamps). */
async function drag(label: string, thumb: 'from' | 'to', share: number) {
  const handle = page.getByRole('slider', { name: `${label} ${thumb}`, exact: true });
  const box = await handle.boundingBox();
  const track = await handle.locator('xpath=ancestor::*[starts-with(@data-testid, "statistic-slider-")][1]').boundingBox();
  if (!box || !track) throw new Error(`no slider for ${label}`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width * share, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
}

const search = (filters: StatisticFilter[]) => apiCall<StatisticCluster[]>(adminToken, 'POST', '/cluster/statistic', { monthId: MONTH, brand: [BRAND], collection: [], filters });

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  adminToken = await apiToken('admin');
  creatorToken = await apiToken('creator');
  await loginAs(page, 'admin');
});
afterAll(async () => {
  for (const t of taken) await apiCall(t.token(), 'POST', '/cluster/unlock', [t.key]).catch(() => undefined);
  await context?.close();
  await browser?.close();
});

describe('Statistics', () => {
  it('from home: two sliders searched, a locked cluster disabled, a free one locked and opened', async () => {
    await pick('filter-month', formatMonthId(MONTH));
    await pick('filter-brand', /Aurora Optics/);
    await page.getByTestId('nav-statistics').click();
    await page.waitForURL(/\/backoffice\/statistics\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('monthId')).toBe(MONTH);
    expect(url.searchParams.getAll('brand')).toEqual([BRAND]);

    await page.getByText(STATISTICS_TEXTS.title, { exact: true }).waitFor();
    await page.getByTestId('statistic-filtered-by').getByText('Aurora Optics').waitFor();
    const filteredBy = await page.getByTestId('statistic-filtered-by').innerText();
    expect(filteredBy).toContain(STATISTICS_TEXTS.filteredBy);
    expect(filteredBy).toContain(formatMonthId(MONTH));
    await page.getByTestId('statistic-category-marketingTheme').waitFor();
    for (const id of ['statistic-search', 'statistic-reset']) expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
    await settle();
    await screenshot(page, 'statistics-start');

    // The same options the page shows, from the server; two sliders whose search the server says is not empty.
    const options = await apiCall<StatisticFilterOptions>(adminToken, 'POST', '/cluster/statisticFiltersByBrand', { monthId: MONTH, brand: [BRAND], collection: [] });
    for (const field of ['marketingTheme', 'polar', 'gender', 'material', 'prizm'] as const) {
      expect(await page.getByTestId(`statistic-category-${field}`).getByRole('slider').count(), field).toBe(options[field].length * 2);
    }
    let chosen: { theme: string; gender: string; expected: StatisticCluster[] } | null = null;
    for (const theme of options.marketingTheme) {
      for (const gender of options.gender) {
        const expected = await search([
          { field: 'marketingTheme', searchValue: theme.value, minRange: 1, maxRange: 100 },
          { field: 'gender', searchValue: gender.value, minRange: 0, maxRange: 99 },
        ]);
        if (expected.filter((c) => !c.locked).length >= 2 && expected.length <= 40) {
          chosen = { theme: theme.label, gender: gender.label, expected };
          break;
        }
      }
      if (chosen) break;
    }
    if (!chosen) throw new Error('no two sliders with results in the demo data');

    // Another user takes the first free cluster of the answer (the demo data may hold others already).
    const lockedOne = chosen.expected.find((c) => !c.locked)!;
    const [held] = await apiCall<{ acquired: boolean }[]>(creatorToken, 'POST', '/cluster/lock', [{ clusterId: lockedOne.clusterId, monthId: MONTH }]);
    expect(held, JSON.stringify(held)).toMatchObject({ acquired: true });
    taken.push({ token: () => creatorToken, key: { clusterId: lockedOne.clusterId, monthId: MONTH } });

    await nudge(chosen.theme, 'from', 'ArrowRight');
    expect(await page.getByTestId('statistic-search').isEnabled()).toBe(true);
    expect(await page.getByTestId('statistic-reset').isEnabled()).toBe(true);
    await nudge(chosen.gender, 'to', 'ArrowLeft');
    expect(await page.getByTestId(`statistic-range-marketingTheme-${options.marketingTheme.find((o) => o.label === chosen.theme)!.value}`).innerText()).toBe(
      '1% – 100%',
    );
    await page.getByTestId('statistic-search').click();
    await page.getByTestId('statistic-results').waitFor();
    const rows = page.locator('[data-testid^="statistic-cluster-"]');
    expect(await rows.count()).toBe(chosen.expected.length);
    const labels = await page.getByTestId('statistic-results').innerText();
    for (const c of chosen.expected) expect(labels).toContain(c.clusterLabel);

    const lockedRow = page.getByTestId(`statistic-cluster-${lockedOne.clusterId}`);
    expect(await lockedRow.isDisabled()).toBe(true);
    expect(await lockedRow.innerText()).toContain('Locked by creator');
    for (const c of chosen.expected.filter((x) => x.locked)) expect(await page.getByTestId(`statistic-cluster-${c.clusterId}`).isDisabled(), c.clusterId).toBe(true);
    const lego = chosen.expected.filter((c) => c.legoMonth).length;
    expect(await page.getByTestId('statistic-lego').count()).toBe(lego);
    await settle();
    await screenshot(page, 'statistics-results');

    // A free one: locked for the caller, and opened on /cluster.
    const free = chosen.expected.find((c) => c.clusterId !== lockedOne.clusterId && !c.locked)!;
    taken.push({ token: () => adminToken, key: { clusterId: free.clusterId, monthId: MONTH } });
    await page.getByTestId(`statistic-cluster-${free.clusterId}`).click();
    await page.waitForURL(/\/backoffice\/cluster\?/);
    const opened = new URL(page.url());
    expect(opened.searchParams.get('clusterId')).toBe(free.clusterId);
    expect(opened.searchParams.get('monthId')).toBe(MONTH);
    const [other] = await apiCall<{ acquired: boolean; userLock: string | null }[]>(creatorToken, 'POST', '/cluster/lock', [
      { clusterId: free.clusterId, monthId: MONTH },
    ]);
    expect(other).toMatchObject({ acquired: false, userLock: 'admin' });
    await page.getByText(free.clusterLabel).first().waitFor();
    await settle();
    await screenshot(page, 'statistics-opened-cluster');
  });

  it('shows the empty text for ranges no cluster meets, and Reset all starts over', async () => {
    await page.goto(`/backoffice/statistics?monthId=${MONTH}&brand=${BRAND}`);
    await page.getByTestId('statistic-category-marketingTheme').waitFor();
    const options = await apiCall<StatisticFilterOptions>(adminToken, 'POST', '/cluster/statisticFiltersByBrand', { monthId: MONTH, brand: [BRAND], collection: [] });
    const [a, b] = options.marketingTheme;
    if (!a || !b) throw new Error('the demo month needs two marketing themes');
    // Two themes can't both be 100 % of a cluster's SKUs.
    await drag(a.label, 'from', 1.1);
    await drag(b.label, 'from', 1.1);
    expect(await page.getByTestId(`statistic-range-marketingTheme-${a.value}`).innerText()).toBe('100% – 100%');
    await page.getByTestId('statistic-search').click();
    await page.getByTestId('statistic-empty').waitFor();
    expect(await page.getByTestId('statistic-empty').innerText()).toBe(STATISTICS_TEXTS.empty);
    await settle();
    await screenshot(page, 'statistics-empty');

    await page.getByTestId('statistic-reset').click();
    await page.getByTestId('statistic-idle').waitFor();
    expect(await page.getByTestId(`statistic-range-marketingTheme-${a.value}`).innerText()).toBe('0% – 100%');
    for (const id of ['statistic-search', 'statistic-reset']) expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
  });
});
