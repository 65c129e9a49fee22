/**
 * Export → LibreOffice → import, for every built-in export template (db/product-data.ts TEMPLATES),
 * through the real calls (docs/IMPORTS.md "What each export template imports"). Each export is opened in
 * LibreOffice headless (libreoffice-calc-nogui), two cells are changed, and LibreOffice writes the .xlsx
 * the import reads: exactly those two cells change. Also: an older copy on a second tab, a Month typed as
 * a date, a cluster created from a copied row, and the stale-version guard (with and without overwrite).
 * Skipped with a message where LibreOffice is not installed.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { ImportResult, UploadItem } from '@bo/shared/uploads';
import { AUR_EU, buildCluster, buildFamily, buildModule, buildSku, buildStore, buildUser } from '../../../test/builders.js';
import { withJobRunner } from '../../../test/cluster-test-app.js';
import { multipartBody } from '../../../test/multipart.js';
import { moveTabs, SOFFICE, SOFFICE_SKIP, sofficeConvert } from '../../../test/soffice.js';
import { buildTestApp, loginAs, type TestUsers } from '../../../test/test-app.js';
import type { Db } from '../../db/client.js';
import { clusterCountries, clusterLias, clusterModules, clusters, clusterStarsZones, clusterStores, jobs, moduleSkus, modules, rules, templates } from '../../db/schema.js';
import { TEMPLATES } from '../../db/product-data.js';

const IMPORT_AUR = { ...AUR_EU, rules: ['import', 'create'] } as const;
const USERS = {
  admin: { role: 'ADMIN' },
  importer: { grants: { view: AUR_EU, edit: IMPORT_AUR } },
  other: { grants: { view: AUR_EU, edit: IMPORT_AUR } },
  importOnly: { grants: { view: AUR_EU, edit: { ...AUR_EU, rules: ['import'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;
type Kind = 'module' | 'cluster';
const M = 'M01_2027';

let app: FastifyInstance;
let db: Db;
let h: Record<User, { authorization: string }>;
let upc: string[];
let templateIds: Map<string, number>;

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: {}, manualJobs: true, tempDataDir: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 } });
  app = test.app;
  db = test.db;
  await db.insert(rules).values({ ruleCode: 'import', description: 'Import', permissionType: 'edit' });
  h = {} as typeof h;
  for (const [username, spec] of Object.entries(USERS)) {
    await buildUser(db, { ...spec, username });
    h[username as User] = await loginAs(app, username);
  }
  // The product's built-in templates, as the seed writes them.
  const inserted = await db
    .insert(templates)
    .values(TEMPLATES.map(({ templateLabel, templatesType, columns }) => ({ templateLabel, templatesType, columns: [...columns] })))
    .returning();
  templateIds = new Map(inserted.map((t) => [t.templateLabel, t.templateId]));
  upc = [];
  for (let i = 0; i < 4; i++) upc.push((await buildSku(db)).upc);
  await buildFamily(db, 'PILOT');
  await buildModule(db, {
    moduleName: 'MOD_A',
    moduleDescription: 'Module A',
    skus: [
      { upc: upc[0]!, mustHave: true, minValue: 2 },
      { upc: upc[1]!, mustHave: false, minValue: 1 },
      { upc: upc[2]!, mustHave: false, minValue: 3 },
    ],
  });
  await buildModule(db, { moduleName: 'MOD_B', skus: [{ upc: upc[3]!, mustHave: true, minValue: 4 }] });
  await buildModule(db, { moduleName: 'MOD_C', skus: [{ upc: upc[0]!, mustHave: true }] });
  const store = await buildStore(db, 'IT');
  await buildCluster(db, { clusterId: 'CL1', clusterDescription: 'Old', storeJdas: [store.storeJda], modules: [{ moduleName: 'MOD_A' }, { moduleName: 'MOD_B' }] });
  await buildCluster(db, { clusterId: 'CL2', storeJdas: [store.storeJda], modules: [{ moduleName: 'MOD_B' }] });
});
afterEach(async () => {
  await app.close();
});

// ───────────── the calls ─────────────

/** The export of `names` with the template, as the browser downloads it. */
async function exported(kind: Kind, template: string, names: string[]): Promise<Buffer> {
  const id = templateIds.get(template)!;
  const payload = names.map((n) => (kind === 'module' ? { moduleName: n, monthId: M } : { clusterName: n, monthId: M }));
  const res = await withJobRunner(app, app.inject({ method: 'POST', url: `/data/export/${names.length > 1 ? 'xls_massive' : 'xls'}/${kind}?templateId=${id}&status=Saved`, headers: h.admin, payload }));
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.rawPayload;
}

/**
 * Uploads the workbook, runs the import job (with `overwrite` in its payload, as the preview's Apply
 * queues it) and answers its response lines and result.
 */
async function imported(user: User, kind: Kind, content: Buffer, overwrite?: string[]): Promise<{ lines: string[]; result: ImportResult }> {
  const { payload, headers } = multipartBody([{ field: 'excelFile', fileName: `${kind}s.xlsx`, content }]);
  const res = await app.inject({ method: 'POST', url: `/api/upload/${kind}`, headers: { ...h[user], ...headers }, payload });
  expect(res.statusCode, res.body).toBe(200);
  const { jobId, upload } = res.json() as { jobId: number; upload: UploadItem };
  if (overwrite) await db.execute(sql`UPDATE ${jobs} SET payload = payload || ${JSON.stringify({ overwrite })}::jsonb WHERE id = ${jobId}`);
  await app.jobs.drain();
  const job = (await app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: h[user] })).json() as { status: string; result: ImportResult; response: string };
  expect(job.status, job.response).toBe('DONE');
  const list = (await app.inject({ method: 'GET', url: '/api/uploadStatus/', headers: h[user] })).json() as UploadItem[];
  return { lines: list.find((u) => u.id === upload.id)!.response!.split(';'), result: job.result };
}

// ───────────── LibreOffice ─────────────

/** A change made in the spreadsheet before LibreOffice saves it. */
type Edit = (wb: ExcelJS.Workbook) => void;

/**
 * Each workbook opened in LibreOffice after its edit and saved there as .xlsx (one soffice run for all).
 * The edit is made on the export's cells (ExcelJS); LibreOffice reads that file and writes the one the
 * import reads, with its own number formats, dates, shared strings and tab order.
 */
async function throughLibreOffice(books: { xlsx: Buffer; edit?: Edit }[]): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bo-round-trip-'));
  try {
    await mkdir(join(dir, 'in'));
    const names = books.map((_, i) => `book${i}`);
    for (const [i, book] of books.entries()) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(book.xlsx as unknown as ExcelJS.Buffer);
      book.edit?.(wb);
      await writeFile(join(dir, 'in', `${names[i]}.xlsx`), Buffer.from(await wb.xlsx.writeBuffer()));
    }
    sofficeConvert(dir, names.map((n) => join(dir, 'in', `${n}.xlsx`)), 'xlsx:Calc MS Excel 2007 XML');
    return await Promise.all(names.map((n) => readFile(join(dir, `${n}.xlsx`))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The header titles of a sheet (row 1), 1-based as ExcelJS counts columns. */
const titlesOf = (ws: ExcelJS.Worksheet) => (ws.getRow(1).values as unknown[]).map((v) => (v === undefined || v === null ? '' : String(v)));

/** Sets `title`'s cell to `value` on the rows of the first tab whose `where` cells hold those texts. */
function setCell(wb: ExcelJS.Workbook, where: Record<string, string>, title: string, value: ExcelJS.CellValue): Edit {
  return () => {
    const ws = wb.worksheets[0]!;
    const titles = titlesOf(ws);
    const col = (t: string) => {
      const i = titles.indexOf(t);
      expect(i, `column ${t} in ${titles.join(', ')}`).toBeGreaterThan(0);
      return i;
    };
    let hits = 0;
    ws.eachRow((row, n) => {
      if (n === 1) return;
      if (Object.entries(where).every(([t, v]) => String(row.getCell(col(t)).value) === v)) {
        row.getCell(col(title)).value = value;
        hits++;
      }
    });
    expect(hits, `rows where ${JSON.stringify(where)}`).toBeGreaterThan(0);
  };
}
const edits =
  (...list: ((wb: ExcelJS.Workbook) => Edit)[]): Edit =>
  (wb) => {
    for (const e of list) e(wb)(wb);
  };
const cell = (where: Record<string, string>, title: string, value: ExcelJS.CellValue) => (wb: ExcelJS.Workbook) => setCell(wb, where, title, value);

/** Every cell of the first tab's column `title` typed as a date of its month (a date cell shown mm/yyyy). */
const monthAsDate = (title: string) => (wb: ExcelJS.Workbook) => () => {
  const ws = wb.worksheets[0]!;
  const col = titlesOf(ws).indexOf(title);
  ws.eachRow((row, n) => {
    if (n === 1) return;
    // The export writes the month as people read it (01/2027; M01_2027 before issue 34).
    const m = /^M?(\d{2})[_/](\d{4})$/.exec(String(row.getCell(col).value));
    row.getCell(col).value = new Date(Date.UTC(Number(m![2]), Number(m![1]) - 1, 15));
    row.getCell(col).numFmt = 'mm/yyyy';
  });
};

/** A copy of the first tab as it was (`from`, the untouched export) added as the last tab, named 'Old copy'. */
async function oldCopyTab(from: Buffer): Promise<(wb: ExcelJS.Workbook) => Edit> {
  const old = new ExcelJS.Workbook();
  await old.xlsx.load(from as unknown as ExcelJS.Buffer);
  const rows: ExcelJS.CellValue[][] = [];
  old.worksheets[0]!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
  return (wb) => () => {
    const ws = wb.addWorksheet('Old copy');
    for (const r of rows) ws.addRow(r);
  };
}

// ───────────── what the database holds ─────────────

async function moduleState(name: string) {
  const [m] = await db.select().from(modules).where(and(eq(modules.moduleName, name), eq(modules.monthId, M)));
  const lines = await db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, m!.id)).orderBy(asc(moduleSkus.position));
  return {
    row: { label: m!.moduleLabel, description: m!.moduleDescription, family: m!.macroFamily, status: m!.status, version: m!.version },
    lines: lines.map((l) => ({ upc: l.upc, mustHave: l.mustHave, status: l.status, minValue: l.minValue })),
  };
}
const allModules = async () => ({ MOD_A: await moduleState('MOD_A'), MOD_B: await moduleState('MOD_B'), MOD_C: await moduleState('MOD_C') });

async function clusterState(id: string) {
  const [c] = await db.select().from(clusters).where(and(eq(clusters.clusterId, id), eq(clusters.monthId, M)));
  if (!c) return null;
  const of = async <T>(rows: Promise<T[]>, pick: (r: T) => string) => (await rows).map(pick).sort();
  return {
    row: { label: c.clusterLabel, description: c.clusterDescription, brand: c.brandCode, collection: c.collection, status: c.status, version: c.version },
    modules: Object.fromEntries((await db.select().from(clusterModules).where(eq(clusterModules.clusterPk, c.id))).map((r) => [r.moduleName, r.status])),
    stores: await of(db.select().from(clusterStores).where(eq(clusterStores.clusterPk, c.id)), (r) => r.storeJda),
    lias: await of(db.select().from(clusterLias).where(eq(clusterLias.clusterPk, c.id)), (r) => r.liaCode),
    countries: await of(db.select().from(clusterCountries).where(eq(clusterCountries.clusterPk, c.id)), (r) => r.countryCode),
    zones: await of(db.select().from(clusterStarsZones).where(eq(clusterStarsZones.clusterPk, c.id)), (r) => r.starsZone),
  };
}
const allClusters = async () => ({ CL1: await clusterState('CL1'), CL2: await clusterState('CL2') });

const bumped = <T extends { row: { version: number } }>(s: T, changes: Partial<Omit<T, 'row'>> & { row?: Partial<T['row']> } = {}): T => ({
  ...s,
  ...changes,
  row: { ...s.row, ...changes.row, version: s.row.version + 1 },
});
const withLine = <L extends { upc: string }>(lines: L[], which: string, change: Partial<L>): L[] => lines.map((l) => (l.upc === which ? { ...l, ...change } : l));

const maybe = SOFFICE ? it : it.skip;
const title = (what: string) => (SOFFICE ? what : `${what} — ${SOFFICE_SKIP}`);
const SLOW = { timeout: 240_000 };

// ───────────── the round trips ─────────────

describe('module templates: export → LibreOffice → import', () => {
  const MODULE_TEMPLATES = TEMPLATES.filter((t) => t.templatesType === 'modulo').map((t) => t.templateLabel);

  it('every module template writes the columns Import Module needs, and the Version', () => {
    for (const t of TEMPLATES.filter((x) => x.templatesType === 'modulo')) {
      expect(t.columns, t.templateLabel).toEqual(expect.arrayContaining(['moduleName', 'monthId', 'upc', 'mustHave', 'version']));
    }
    for (const t of TEMPLATES.filter((x) => x.templatesType === 'cluster')) {
      expect(t.columns, t.templateLabel).toEqual(expect.arrayContaining(['clusterId', 'monthId', 'moduleName', 'version']));
    }
  });

  for (const template of MODULE_TEMPLATES) {
    maybe(title(`${template}: unchanged, nothing changes; two cells changed in LibreOffice, exactly those change`), SLOW, async () => {
      const file = await exported('module', template, ['MOD_A', 'MOD_B']);
      const before = await allModules();
      // The two cells: MOD_A's upc1 EL → MH, and upc0's Min value 2 → 7 (the template that has it) or MOD_B's upc3 MH → EL.
      const byUpc = (u: string, t: string, v: ExcelJS.CellValue) => cell({ UPC: u }, t, v);
      const edit =
        template === 'Module standard'
          ? edits(byUpc(upc[1]!, 'MH/EL', 'MH'), byUpc(upc[0]!, 'Min value', 7))
          : edits(byUpc(upc[1]!, 'MH/EL', 'MH'), byUpc(upc[3]!, 'MH/EL', 'EL'));
      const [same, edited] = (await throughLibreOffice([{ xlsx: file }, { xlsx: file, edit }])) as [Buffer, Buffer];

      const unchanged = await imported('importer', 'module', same);
      expect(unchanged.lines).toEqual(['MOD_A (01/2027): nothing to change', 'MOD_B (01/2027): nothing to change']);
      expect(await allModules()).toEqual(before);

      const changed = await imported('importer', 'module', edited);
      if (template === 'Module standard') {
        expect(changed.lines).toEqual([`MOD_A (01/2027): saved (Min value of SKU ${upc[0]}: 2 → 7, SKU ${upc[1]} moved from EL to MH)`, 'MOD_B (01/2027): nothing to change']);
        expect(await allModules()).toEqual({
          ...before,
          MOD_A: bumped(before.MOD_A, { lines: withLine(withLine(before.MOD_A.lines, upc[0]!, { minValue: 7 }), upc[1]!, { mustHave: true }) }),
        });
      } else {
        expect(changed.lines).toEqual([`MOD_A (01/2027): saved (SKU ${upc[1]} moved from EL to MH)`, `MOD_B (01/2027): saved (SKU ${upc[3]} moved from MH to EL)`]);
        expect(await allModules()).toEqual({
          ...before,
          MOD_A: bumped(before.MOD_A, { lines: withLine(before.MOD_A.lines, upc[1]!, { mustHave: true }) }),
          MOD_B: bumped(before.MOD_B, { lines: withLine(before.MOD_B.lines, upc[3]!, { mustHave: false }) }),
        });
      }
    });
  }

  maybe(title('Module standard: an older copy on a second tab is not read; a Month typed as a date is its month; the tab shown first is what is read'), SLOW, async () => {
    const file = await exported('module', 'Module standard', ['MOD_A']);
    const before = await moduleState('MOD_A');
    const [saved] = (await throughLibreOffice([
      { xlsx: file, edit: edits(cell({ UPC: upc[1]! }, 'MH/EL', 'MH'), cell({ UPC: upc[2]! }, 'Min value', 9), monthAsDate('Month'), await oldCopyTab(file)) },
    ])) as [Buffer];
    const result = await imported('importer', 'module', saved);
    expect(result.lines).toEqual([`MOD_A (01/2027): saved (SKU ${upc[1]} moved from EL to MH, Min value of SKU ${upc[2]}: 3 → 9)`]);
    expect(await moduleState('MOD_A')).toEqual(bumped(before, { lines: withLine(withLine(before.lines, upc[1]!, { mustHave: true }), upc[2]!, { minValue: 9 }) }));
    // The old copy's tab dragged first (its part still stored second): it is the one read now — and, exported
    // before the change just imported, it is refused rather than undoing it.
    const reverted = await imported('importer', 'module', await moveTabs(saved, [1, 0]));
    expect(reverted.lines).toEqual([expect.stringMatching(/^MOD_A \(01\/2027\): refused: changed by importer on .* since this file was exported$/)]);
  });
});

describe('cluster templates: export → LibreOffice → import', () => {
  for (const template of TEMPLATES.filter((t) => t.templatesType === 'cluster').map((t) => t.templateLabel)) {
    maybe(title(`${template}: unchanged, nothing changes; two cells changed in LibreOffice, exactly those change`), SLOW, async () => {
      const file = await exported('cluster', template, ['CL1', 'CL2']);
      const before = await allClusters();
      const edit =
        template === 'Cluster standard'
          ? edits(cell({ 'Cluster id': 'CL1' }, 'Module names', 'MOD_A, MOD_C'), cell({ 'Cluster id': 'CL1' }, 'Description', 'New'))
          : edits(cell({ 'Cluster id': 'CL1' }, 'Module names', 'MOD_A, MOD_C'), cell({ 'Cluster id': 'CL2' }, 'Module names', 'MOD_B, MOD_A'));
      const [same, edited] = (await throughLibreOffice([{ xlsx: file }, { xlsx: file, edit }])) as [Buffer, Buffer];

      const unchanged = await imported('importer', 'cluster', same);
      expect(unchanged.lines).toEqual(['CL1 (01/2027): nothing to change', 'CL2 (01/2027): nothing to change']);
      expect(await allClusters()).toEqual(before);

      const changed = await imported('importer', 'cluster', edited);
      if (template === 'Cluster standard') {
        expect(changed.lines).toEqual(['CL1 (01/2027): saved (Added module MOD_C, Removed module MOD_B, Description: "Old" → "New")', 'CL2 (01/2027): nothing to change']);
        expect(await allClusters()).toEqual({
          ...before,
          CL1: bumped(before.CL1!, { modules: { MOD_A: 'ADDED', MOD_B: 'REMOVED', MOD_C: 'ADDED' }, row: { description: 'New' } }),
        });
      } else {
        expect(changed.lines).toEqual(['CL1 (01/2027): saved (Added module MOD_C, Removed module MOD_B)', 'CL2 (01/2027): saved (Added module MOD_A)']);
        expect(await allClusters()).toEqual({
          ...before,
          CL1: bumped(before.CL1!, { modules: { MOD_A: 'ADDED', MOD_B: 'REMOVED', MOD_C: 'ADDED' } }),
          CL2: bumped(before.CL2!, { modules: { MOD_B: 'ADDED', MOD_A: 'ADDED' } }),
        });
      }
    });
  }

  maybe(title('Cluster standard: an older copy on a second tab is not read; a Month typed as a date is its month'), SLOW, async () => {
    const file = await exported('cluster', 'Cluster standard', ['CL1']);
    const before = await clusterState('CL1');
    const [saved] = (await throughLibreOffice([
      { xlsx: file, edit: edits(cell({ 'Cluster id': 'CL1' }, 'Module names', 'MOD_A'), cell({ 'Cluster id': 'CL1' }, 'Description', 'Edited'), monthAsDate('Month'), await oldCopyTab(file)) },
    ])) as [Buffer];
    const result = await imported('importer', 'cluster', saved);
    expect(result.lines).toEqual(['CL1 (01/2027): saved (Removed module MOD_B, Description: "Old" → "Edited")']);
    expect(await clusterState('CL1')).toEqual(bumped(before!, { modules: { MOD_A: 'ADDED', MOD_B: 'REMOVED' }, row: { description: 'Edited' } }));
  });

  maybe(title('Import Cluster creates a cluster from a copied row of the export (the creation rules and rights of the create call)'), SLOW, async () => {
    const file = await exported('cluster', 'Cluster standard', ['CL1']);
    const before = await clusterState('CL1');
    const addCopy = (id: string, label: string) => (wb: ExcelJS.Workbook) => () => {
      const ws = wb.worksheets[0]!;
      const titles = titlesOf(ws);
      const values = (ws.getRow(2).values as ExcelJS.CellValue[]).slice(1);
      values[titles.indexOf('Cluster id') - 1] = id;
      values[titles.indexOf('Cluster label') - 1] = label;
      ws.addRow(values);
    };
    const [withNew, withNew2] = (await throughLibreOffice([{ xlsx: file, edit: edits(addCopy('CL_NEW', 'New cluster')) }, { xlsx: file, edit: edits(addCopy('CL_NEW2', 'Other new')) }])) as [Buffer, Buffer];

    // Without the create right: refused with the create call's text, nothing written.
    const refused = await imported('importOnly', 'cluster', withNew);
    expect(refused.lines).toEqual(['CL1 (01/2027): nothing to change', "CL_NEW (01/2027): refused: You don't have the right to create for this brand and stars zone."]);
    expect(await clusterState('CL_NEW')).toBeNull();

    const created = await imported('importer', 'cluster', withNew);
    expect(created.lines).toEqual(['CL1 (01/2027): nothing to change', 'CL_NEW (01/2027): created with 2 module(s)']);
    expect(created.result.counts).toEqual({ created: 1, saved: 0, unchanged: 1, failed: 0 });
    expect(await clusterState('CL_NEW')).toEqual({
      ...before,
      row: { ...before!.row, label: 'New cluster', status: 'WIP', version: expect.any(Number) },
      modules: { MOD_A: 'ADDED', MOD_B: 'ADDED' },
    });
    expect(await clusterState('CL1')).toEqual(before);
    const [row] = await db.select().from(clusters).where(eq(clusters.clusterId, 'CL_NEW'));
    expect(row).toMatchObject({ createdBy: 'importer', releaseId: 'R2027' });

    // An id taken in another month, or a label taken in the month: the create call's rules.
    await buildCluster(db, { clusterId: 'CL_NEW2', monthId: 'M02_2027' });
    const taken = await imported('importer', 'cluster', withNew2);
    expect(taken.lines[1]).toBe('CL_NEW2 (01/2027): refused: The cluster id CL_NEW2 already exists in M02_2027.');
  });
});

describe('stale-version guard', () => {
  maybe(title('Import Module: a module changed since the export is refused with who and when; with overwrite it is applied'), SLOW, async () => {
    const file = await exported('module', 'Module standard', ['MOD_A', 'MOD_B']);
    const [mine, theirs] = (await throughLibreOffice([
      { xlsx: file, edit: edits(cell({ UPC: upc[1]! }, 'MH/EL', 'MH'), cell({ UPC: upc[3]! }, 'Min value', 5)) },
      { xlsx: file, edit: edits(cell({ UPC: upc[0]! }, 'Min value', 8)) },
    ])) as [Buffer, Buffer];
    // Someone else imports their edit of MOD_A first.
    expect((await imported('other', 'module', theirs)).lines[0]).toBe(`MOD_A (01/2027): saved (Min value of SKU ${upc[0]}: 2 → 8)`);
    const [a] = await db.select().from(modules).where(eq(modules.moduleName, 'MOD_A'));
    const after = await allModules();

    const stale = await imported('importer', 'module', mine);
    const when = a!.updatedAt.toISOString();
    const shown = `${when.slice(8, 10)}/${when.slice(5, 7)}/${when.slice(0, 4)} ${when.slice(11, 16)} UTC`;
    expect(stale.lines).toEqual([`MOD_A (01/2027): refused: changed by other on ${shown} since this file was exported`, `MOD_B (01/2027): saved (Min value of SKU ${upc[3]}: 4 → 5)`]);
    expect((await allModules()).MOD_A).toEqual(after.MOD_A);

    // The planner chooses to overwrite MOD_A: the file's content wins (upc0's min value back to 2).
    const overwritten = await imported('importer', 'module', mine, ['MOD_A|M01_2027']);
    expect(overwritten.lines).toEqual([`MOD_A (01/2027): saved (Min value of SKU ${upc[0]}: 8 → 2, SKU ${upc[1]} moved from EL to MH)`, expect.stringMatching(/^MOD_B \(01\/2027\): refused: changed by importer/)]);
    expect((await moduleState('MOD_A')).lines).toEqual(withLine(after.MOD_A.lines, upc[1]!, { mustHave: true, minValue: 1 }).map((l) => (l.upc === upc[0] ? { ...l, minValue: 2 } : l)));
  });

  maybe(title('Import Cluster: a cluster changed in the editor since the export is refused; with overwrite it is applied; a file without Version is not guarded'), SLOW, async () => {
    const file = await exported('cluster', 'Cluster stores', ['CL1']);
    const [mine] = (await throughLibreOffice([{ xlsx: file, edit: edits(cell({ 'Cluster id': 'CL1' }, 'Module names', 'MOD_A, MOD_C')) }])) as [Buffer];
    // Someone else changes CL1 in the cluster editor: lock, save (MOD_B to the bin, a new description).
    const key = { clusterId: 'CL1', monthId: M };
    expect((await app.inject({ method: 'POST', url: '/api/cluster/lock', headers: h.other, payload: [key] })).statusCode).toBe(200);
    const save = await app.inject({
      method: 'POST',
      url: '/api/cluster/save',
      headers: h.other,
      payload: [{ ...key, clusterDescription: 'Edited', modules: [{ moduleName: 'MOD_A', clusterCompositionStatus: 'ADDED' }, { moduleName: 'MOD_B', clusterCompositionStatus: 'REMOVED' }] }],
    });
    expect(save.statusCode, save.body).toBe(200);
    await app.inject({ method: 'POST', url: '/api/cluster/unlock', headers: h.other, payload: [key] });
    const after = await clusterState('CL1');
    expect(after).toMatchObject({ row: { description: 'Edited' }, modules: { MOD_A: 'ADDED', MOD_B: 'REMOVED' } });
    const [row] = await db.select().from(clusters).where(eq(clusters.clusterId, 'CL1'));
    const when = row!.updatedAt.toISOString();
    const stale = await imported('importer', 'cluster', mine);
    expect(stale.lines).toEqual([`CL1 (01/2027): refused: changed by other on ${when.slice(8, 10)}/${when.slice(5, 7)}/${when.slice(0, 4)} ${when.slice(11, 16)} UTC since this file was exported`]);
    expect(await clusterState('CL1')).toEqual(after);
    // Overwritten: the file's modules win; the description (not in this template) stays the editor's.
    const overwritten = await imported('importer', 'cluster', mine, ['CL1|M01_2027']);
    expect(overwritten.lines).toEqual(['CL1 (01/2027): saved (Added module MOD_C)']);
    expect(await clusterState('CL1')).toEqual(bumped(after!, { modules: { MOD_A: 'ADDED', MOD_B: 'REMOVED', MOD_C: 'ADDED' } }));

    // A hand-made sheet (no Version column) imports as before: not guarded.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Clusters');
    ws.addRow(['Cluster id', 'Month', 'Module name']);
    ws.addRow(['CL1', M, 'MOD_A']);
    const handMade = await imported('importer', 'cluster', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(handMade.lines).toEqual(['CL1 (01/2027): saved (Removed module MOD_C)']);
    expect((await clusterState('CL1'))!.modules).toEqual({ MOD_A: 'ADDED', MOD_B: 'REMOVED', MOD_C: 'REMOVED' });
  });
});

describe('migration 0013', () => {
  it('gives the built-in template rows of an earlier installation the columns of TEMPLATES, and leaves other templates alone', async () => {
    await db.delete(templates);
    const OLD: Record<number, string[]> = {
      1: ['moduleName', 'moduleLabel', 'monthId', 'macroFamily', 'brand', 'collection', 'upc', 'model', 'color', 'size', 'mustHave', 'minValue'],
      2: ['moduleName', 'moduleLabel', 'monthId', 'upc', 'model', 'color', 'size', 'mustHave', 'srp', 'whsprice', 'sellIn', 'sellOut', 'doorIndex', 'pty'],
      3: ['moduleName', 'upc', 'model', 'color', 'size', 'releaseDate', 'flagDisco', 'globalCatalogue'],
      4: ['clusterId', 'clusterLabel', 'monthId', 'brandCode', 'collection', 'country', 'moduleName', 'moduleLabel', 'rangeFacing'],
      5: ['clusterId', 'clusterLabel', 'monthId', 'storeJda', 'codiceStoreSap', 'starsCustomer', 'customerSegmentation', 'lias'],
    };
    await db.insert(templates).values([
      ...TEMPLATES.map((t) => ({ templateId: t.templateId, templateLabel: t.templateLabel, templatesType: t.templatesType, columns: OLD[t.templateId]! })),
      { templateId: 6, templateLabel: 'Mine', templatesType: 'modulo', columns: ['upc'] },
    ]);
    const text = readFileSync(new URL('../../db/migrations/0013_import_templates.sql', import.meta.url), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
    const rows = await db.select().from(templates).orderBy(asc(templates.templateId));
    expect(rows.map((r) => r.columns)).toEqual([...TEMPLATES.map((t) => [...t.columns]), ['upc']]);
  });
});
