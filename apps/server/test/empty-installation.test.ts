import { describe, expect, it } from 'vitest';
import { FILE_LOADER_TEXTS, type UploadItem } from '@bo/shared/uploads';
import { LOADER_FILE_KINDS } from '../src/areas/uploads/release-loader/formats.js';
import { releaseFingerprint } from './release-fingerprint.js';
import { queryOnce, withScratchPostgres } from './scratch-postgres.js';
import { apply, download, preview, RELEASE, type Files } from './day-one.js';
import { callOver, loginOver, startServer, type RunningServer } from './server-process.js';
import { libreOfficeResave, SOFFICE, SOFFICE_SKIP } from './soffice.js';

/**
 * Day one at a retailer (issue 33): a demo installation's release downloaded as its five files fills a new,
 * empty installation (PostgreSQL, DEMO_DATA=never, the admin from the environment) through Upload Files —
 * preview, then Apply — and the release downloaded from there is byte for byte the first download, with the
 * same counts and composition checksums. Then the same files after a pass through LibreOffice with its
 * default options (saved as CSV, and as xlsx).
 */
const ADMIN = { ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'first-day-pw' };
/**
 * A new installation on a scratch database: empty, DEMO_DATA=never, the admin from the environment; its
 * release created on Manage Releases; `files` previewed, then applied. Answers what `check` answers.
 */
async function newInstallation<T>(files: Files, ext: string, check: (run: { server: RunningServer; token: string; url: string; previewed: UploadItem }) => Promise<T>): Promise<T> {
  return withScratchPostgres('bo_day_one', async (url) => {
    const server = await startServer({ DATABASE_URL: url, DEMO_DATA: 'never', ...ADMIN });
    try {
      const token = await loginOver(server.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD);
      // Nothing but the admin and the product's own data (rules, export templates).
      expect(await queryOnce(url, `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM brands) AS brands, (SELECT count(*)::int FROM rules) AS rules, (SELECT count(*)::int FROM templates) AS templates`)).toEqual([
        { users: 1, brands: 0, rules: 4, templates: 5 },
      ]);
      expect((await callOver(server, token, 'POST', '/api/release/createNew', { releaseId: RELEASE })).status).toBe(200);
      const previewed = await preview(server, token, files, ext);
      return await check({ server, token, url, previewed });
    } finally {
      await server.stop();
    }
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('an empty installation filled from the release files', () => {
  it('takes a demo release as its five files: preview, apply, and the download is the same bytes', async () => {
    // The demo installation and its release's five files.
    const { files, fingerprint } = await withScratchPostgres('bo_day_one_demo', async (url) => {
      const demo = await startServer({ DATABASE_URL: url, DEMO_DATA: 'always', DEMO_SCALE: '0.05', ...ADMIN }, 300_000);
      try {
        const token = await loginOver(demo.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD);
        return { files: await download(demo, token), fingerprint: await releaseFingerprint((text) => queryOnce(url, text), RELEASE) };
      } finally {
        await demo.stop();
      }
    });
    expect(Number(fingerprint.modules)).toBeGreaterThan(10);
    expect(files.reference.toString('utf8')).toContain('\r\nBRAND,AUR,Aurora Optics,\r\n');

    await newInstallation(files, 'csv', async ({ server, token, url, previewed }) => {
      // The preview wrote nothing and says what the load will do.
      expect(await queryOnce(url, 'SELECT (SELECT count(*)::int FROM brands) AS brands, (SELECT count(*)::int FROM modules) AS modules')).toEqual([{ brands: 0, modules: 0 }]);
      const lines = previewed.response!.split(';');
      expect(lines[0]).toBe(FILE_LOADER_TEXTS.previewed);
      // Manage Releases opened 12 months from today; the files' other months are created by the load.
      expect(lines.find((l) => l.startsWith('Months created: '))).toBeDefined();
      expect(lines.find((l) => l.startsWith('Reference data: '))).toContain('BRAND 5 new, 0 updated');
      expect(lines.find((l) => l.startsWith('Modules: '))).toMatch(new RegExp(`^Modules: ${fingerprint.modules} new, 0 changed, 0 unchanged .*clusters: ${fingerprint.clusters} new, 0 changed, 0 unchanged`));
      await apply(server, token, previewed);
      // A second Apply of the same preview is refused.
      expect((await callOver(server, token, 'POST', `/data/fileLoader/${previewed.id}/apply`)).status).toBe(409);
      const again = await download(server, token);
      for (const kind of LOADER_FILE_KINDS) expect(again[kind].equals(files[kind]), `${kind} differs after the round trip`).toBe(true);
      expect(await releaseFingerprint((text) => queryOnce(url, text), RELEASE)).toEqual(fingerprint);
      const monthIds = new Set(files.module.toString('utf8').split('\r\n').slice(1, -1).map((line) => line.split(',')[1]!));
      const months = await queryOnce(url, `SELECT month_id FROM months WHERE release_id = '${RELEASE}'`);
      expect([...monthIds].filter((m) => !months.some((r) => r.month_id === m))).toEqual([]);
    });

    if (!SOFFICE) {
      console.warn(`LibreOffice pass ${SOFFICE_SKIP}`);
      return;
    }
    // Through LibreOffice with its default options, saved as CSV and as xlsx: loads, and the download is the same.
    for (const to of ['csv', 'xlsx'] as const) {
      const resaved = await libreOfficeResave(
        LOADER_FILE_KINDS.map((kind) => ({ name: `${RELEASE}-${kind}.csv`, content: files[kind] })),
        to,
      );
      const through = Object.fromEntries(LOADER_FILE_KINDS.map((kind, i) => [kind, resaved[i]!])) as Files;
      await newInstallation(through, to, async ({ server, token, url, previewed }) => {
        await apply(server, token, previewed);
        const again = await download(server, token);
        for (const kind of LOADER_FILE_KINDS) expect(again[kind].toString('utf8'), `${kind} after LibreOffice (${to})`).toBe(files[kind].toString('utf8'));
        expect(await releaseFingerprint((text) => queryOnce(url, text), RELEASE)).toEqual(fingerprint);
      });
    }
  }, 1_200_000);
});
