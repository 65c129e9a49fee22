/**
 * Uploaded file names (Import Data and Upload Files) are kept as the file is named and answered as JSON text:
 * markup stays characters, a right-to-left override stays, and the escapes the HTML standard has browsers write
 * in a multipart file name ('"' as %22, CR and LF as %0D and %0A) are read back (docs/IMPORTS.md "File names").
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_LOADER_FILES, type UploadItem } from '@bo/shared/uploads';
import { multipartBody } from '../../../test/multipart.js';
import { buildTestApp, type TestUsers } from '../../../test/test-app.js';
import { queryRows, type Db } from '../../db/client.js';
import { FORMATS, RELEASE_FILE_KINDS } from './release-loader/formats.js';

const USERS = { admin: { role: 'ADMIN' } } as const satisfies TestUsers;

let app: FastifyInstance;
let db: Db;
let admin: { authorization: string };
let book: Buffer;

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: USERS, manualJobs: true, tempDataDir: true });
  app = test.app;
  db = test.db;
  admin = await test.as('admin');
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Modules');
  sheet.addRow(['Module name', 'Month', 'UPC', 'MH/EL', 'Min value']);
  sheet.addRow(['NO_SUCH_MODULE', 'M01_2027', '8050000000017', 'MH', 1]);
  book = Buffer.from(await wb.xlsx.writeBuffer());
});
afterEach(async () => {
  await app.close();
});

/** Import Module with the file name exactly as given in the part's header (as a browser writes it), run to its end. */
async function importModule(sentName: string) {
  const { payload, headers } = multipartBody([{ field: 'excelFile', fileName: sentName, content: book }]);
  const res = await app.inject({ method: 'POST', url: '/api/upload/module', headers: { ...admin, ...headers }, payload });
  expect(res.statusCode, res.body).toBe(200);
  // One upload at a time per user: the import runs (and ends) before the next.
  await app.jobs.drain();
  return (res.json() as { upload: UploadItem }).upload;
}

const listed = async () => {
  const res = await app.inject({ method: 'GET', url: '/api/uploadStatus/', headers: admin });
  return { res, names: (res.json() as UploadItem[]).map((u) => u.fileName) };
};

describe('uploaded file names', () => {
  it("Import Data keeps markup and a right-to-left override as characters, answers them as JSON text, and reads back the browser's escapes", async () => {
    const names = ['<img src=x onerror=alert(1)>.xlsx', `Tom's & <b>co.xlsx`, 'invoice\u202Egnp.xlsx'];
    for (const name of names) expect((await importModule(name)).fileName).toBe(name);
    // '"' is sent as %22, CR and LF as %0D and %0A; anything else written with % stays as it is.
    expect((await importModule('Tom%22s %22best%22.xlsx')).fileName).toBe('Tom"s "best".xlsx');
    expect((await importModule('two%0D%0Alines.xlsx')).fileName).toBe('two\r\nlines.xlsx');
    expect((await importModule('100%25 sure %41.xlsx')).fileName).toBe('100%25 sure %41.xlsx');
    const { res, names: shown } = await listed();
    expect(shown.toSorted()).toEqual([...names, 'Tom"s "best".xlsx', 'two\r\nlines.xlsx', '100%25 sure %41.xlsx'].toSorted());
    // JSON, never sniffed as HTML: the page shows the name as text.
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('Upload Files: each file and the upload keep their names, the escapes read back', async () => {
    const sent = { module: '<img src=x onerror=alert(1)>.csv', cluster: 'Tom%22s %22best%22 & co.csv', registry: 'registry\u202Evsc.csv', segment: 'segment.csv' };
    const kept = { ...sent, cluster: `Tom"s "best" & co.csv` };
    const { payload, headers } = multipartBody([
      ...RELEASE_FILE_KINDS.map((kind) => ({ field: kind, fileName: sent[kind], content: Buffer.from(`${FORMATS[kind].columns.map((c) => c.name).join(',')}\n`), type: 'text/csv' })),
      { field: 'releaseId', value: 'R2027' },
      { field: 'type', value: 'delta' },
    ]);
    const res = await app.inject({ method: 'POST', url: '/data/fileLoader/import', headers: { ...admin, ...headers }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const { upload } = res.json() as { upload: UploadItem };
    // The name with a right-to-left override is isolated in the joined text (it cannot reverse the names after it).
    expect(upload.fileName).toBe(FILE_LOADER_FILES.map((field) => (field === 'registry' ? `\u2068${kept[field]}\u2069` : kept[field])).join(', '));
    const files = await queryRows<{ file_name: string }>(db, sql`SELECT file_name FROM upload_files WHERE upload_id = ${upload.id}`);
    expect(files.map((f) => f.file_name).toSorted()).toEqual(Object.values(kept).toSorted());
  });
});
