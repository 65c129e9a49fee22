/**
 * Export files are written in the export worker (export-worker.ts), a process of its own, so that pictures,
 * workbooks and PDFs never hold the process that answers the planners (issue 35 item 3; docs/exports.md
 * "Off the main thread"). Speed is the load benchmark's business (bench/bulk-during-morning.ts), not a test's.
 */
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUR_EU, buildModule, buildSku } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { templates } from '../../db/schema.js';
import { exportWorker } from './export-worker-client.js';

const USERS = { editor: { grants: { view: AUR_EU, edit: AUR_EU } } } as const satisfies TestUsers;

let app: FastifyInstance;
let as: TestApp<keyof typeof USERS>['as'];
let upcs: string[];
let templateId: number;
const M = 'M01_2027';

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
  const db = app.database.db;
  const [template] = await db.insert(templates).values({ templateLabel: 'Worker', templatesType: 'modulo', columns: ['moduleName', 'upc'] }).returning();
  templateId = template!.templateId;
  // Models no earlier export drew: the worker keeps the pictures it drew while it lives.
  const model = `WK${Date.now().toString(36).toUpperCase()}`;
  upcs = [];
  for (let i = 0; i < 4; i++) upcs.push((await buildSku(db, { model: `${model}${i}` })).upc);
  const [s0, s1, s2, s3] = upcs as [string, string, string, string];
  await buildModule(db, { moduleName: 'MOD_A', status: 'SUBMITTED', skus: [{ upc: s0 }, { upc: s1 }, { upc: s2, mustHave: false }] });
  await buildModule(db, { moduleName: 'MOD_B', status: 'SUBMITTED', skus: [{ upc: s1 }, { upc: s3 }] });
});
afterEach(async () => {
  await app.close();
});

const exportWithPhotos = async () =>
  app.inject({
    method: 'POST',
    url: '/data/export/xls/photo_massive/module',
    query: { templateId: String(templateId) },
    headers: await as('editor'),
    payload: [
      { moduleName: 'MOD_A', monthId: M },
      { moduleName: 'MOD_B', monthId: M },
    ],
  });

async function picturesIn(bytes: Buffer): Promise<number> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return workbook.getWorksheet('Modules')!.getImages().length;
}

describe('the export worker', () => {
  it('draws the pictures and writes the workbook in a worker process, not the process that answers requests', async () => {
    const before = exportWorker.finished;
    const res = await exportWithPhotos();
    expect(res.statusCode).toBe(200);
    expect(await picturesIn(res.rawPayload)).toBe(5);
    expect(exportWorker.finished).toBe(before + 1);
    expect(exportWorker.lastRun!.pid).not.toBe(process.pid);
    expect(exportWorker.lastRun!.pid).toBeGreaterThan(0);
    // Four SKUs, each drawn once, all of them there.
    expect(exportWorker.lastRun!.drawn).toBe(4);
  });

  it('hands over the pictures the picture route drew in this process instead of drawing them again', async () => {
    for (const upc of upcs.slice(0, 2)) {
      const picture = await app.inject({ method: 'GET', url: `/data/images/${upc}/1.png?width=120`, headers: await as('editor') });
      expect(picture.statusCode).toBe(200);
    }
    const res = await exportWithPhotos();
    expect(res.statusCode).toBe(200);
    expect(await picturesIn(res.rawPayload)).toBe(5);
    expect(exportWorker.lastRun!.drawn).toBe(2);
  });

  it('answers a failure in the worker to its session only; the worker goes on with the next export', async () => {
    const failing = exportWorker.open({ kind: 'module', pdf: false, columns: ['moduleName'], withPictures: false }, () => {});
    await expect(failing.add({ module: null, lines: [{}] })).rejects.toThrow(/export worker|null|undefined/i);
    failing.abort();
    const res = await exportWithPhotos();
    expect(res.statusCode).toBe(200);
    expect(await picturesIn(res.rawPayload)).toBe(5);
  });
});
