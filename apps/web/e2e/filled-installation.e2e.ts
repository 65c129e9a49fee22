/**
 * Day one at a retailer (issue 33), in the browser: a new installation (an empty PostgreSQL database,
 * DEMO_DATA=never, its administrator from the environment) filled only from a demo release's five files
 * through Upload Files (preview, then Apply), then used as a planner would: home search, a module, a
 * cluster, an export. Needs the local PostgreSQL (TEST_DATABASE_URL, or 127.0.0.1:5432/test as in CI);
 * the servers run from the sources (as the process tests do) and serve the built web app.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, download, preview, RELEASE, type Files } from '../../server/test/day-one';
import { withScratchPostgres } from '../../server/test/scratch-postgres';
import { callOver, loginOver, startServer, type RunningServer } from '../../server/test/server-process';
import { launchBrowser, screenshot } from './helpers/browser';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const probe = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
const reachable = await probe.connect().then(
  () => true,
  () => false,
);
await probe.end().catch(() => undefined);

const ADMIN = { ADMIN_USERNAME: 'first.admin', ADMIN_PASSWORD: 'day-one-password' };

let browser: Browser;
beforeAll(async () => {
  if (reachable) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A month of the release with a module and a cluster of one brand, as the new installation answers it. */
async function target(server: RunningServer, token: string) {
  const months = (await callOver(server, token, 'GET', '/api/month/all')).body as { monthId: string; open: boolean }[];
  const brands = (await callOver(server, token, 'GET', '/api/brand/all')).body as { brandCode: string; description: string }[];
  for (const { monthId } of months.filter((m) => m.open)) {
    for (const brand of brands) {
      const body = { monthId: [monthId], brand: [brand.brandCode] };
      const modules = (await callOver(server, token, 'POST', '/api/module/filtered', body)).body as { moduleName: string }[];
      const clusters = (await callOver(server, token, 'POST', '/api/cluster/filtered', body)).body as { clusterId: string }[];
      if (modules.length && clusters.length) return { monthId, brand, module: modules[0]!.moduleName, cluster: clusters[0]!.clusterId };
    }
  }
  throw new Error('the filled installation has no open month with a module and a cluster of one brand');
}

async function pick(page: Page, testId: string, name: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name }).first().click();
  if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
}

describe.skipIf(!reachable)('a new installation filled from the release files, in the browser', { timeout: 600_000 }, () => {
  it('searches on home, opens a module and a cluster, and exports the module', async () => {
    // The five files of a (small) demo installation's release.
    const files: Files = await withScratchPostgres('bo_e2e_demo', async (url) => {
      const demo = await startServer({ DATABASE_URL: url, DEMO_DATA: 'always', DEMO_SCALE: '0.05', ...ADMIN }, 300_000);
      try {
        return await download(demo, await loginOver(demo.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD));
      } finally {
        await demo.stop();
      }
    });

    await withScratchPostgres('bo_e2e_filled', async (url) => {
      const server = await startServer({ DATABASE_URL: url, DEMO_DATA: 'never', ...ADMIN });
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Rome' });
      try {
        const token = await loginOver(server.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD);
        expect((await callOver(server, token, 'POST', '/api/release/createNew', { releaseId: RELEASE })).status).toBe(200);
        await apply(server, token, await preview(server, token, files, 'csv'));
        const t = await target(server, token);

        const page = await context.newPage();
        context.setDefaultTimeout(30_000);
        await page.goto('/backoffice/login');
        await page.getByLabel('Username').fill(ADMIN.ADMIN_USERNAME);
        await page.getByLabel('Password', { exact: true }).fill(ADMIN.ADMIN_PASSWORD);
        await page.getByRole('button', { name: 'Login', exact: true }).click();
        await page.waitForURL(/\/backoffice\/?$/);

        // Home: month and brand, Search, the three columns.
        const [mm, yyyy] = [t.monthId.slice(1, 3), t.monthId.slice(4)];
        await pick(page, 'filter-month', `${mm}/${yyyy}`);
        await pick(page, 'filter-brand', t.brand.description);
        await page.getByTestId('search-button').click();
        await page.getByTestId('result-columns').waitFor();
        expect(await page.getByTestId('module-row').count()).toBeGreaterThan(0);
        expect(await page.getByTestId('cluster-row').count()).toBeGreaterThan(0);
        await screenshot(page, 'filled-installation-home');

        // A module, and its export (XLS, Module standard).
        await page.goto(`/backoffice/module?moduleName=${t.module}&monthId=${t.monthId}`);
        const card = page.locator(`[data-testid="module-card"][data-module="${t.module}"]`);
        await card.waitFor();
        expect(await card.locator('[data-testid="sku-tile"]').count()).toBeGreaterThan(0);
        await screenshot(page, 'filled-installation-module');
        await page.getByTestId('export-module').click();
        const modal = page.getByTestId('export-modal').locator('.mantine-Modal-content');
        await modal.getByText('XLS', { exact: true }).click();
        await modal.getByTestId('export-template').click();
        await page.getByRole('option', { name: 'Module standard' }).click();
        const [xlsx] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), modal.getByTestId('export-start').click()]);
        const bytes = readFileSync((await xlsx.path())!);
        expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

        // A cluster.
        await page.goto(`/backoffice/cluster?clusterId=${t.cluster}&monthId=${t.monthId}`);
        await page.locator(`[data-testid="cluster-block"][data-cluster="${t.cluster}"]`).waitFor();
        await screenshot(page, 'filled-installation-cluster');
        await page.goto('/backoffice/');
      } finally {
        await context.close();
        await server.stop();
      }
    });
  });
});
