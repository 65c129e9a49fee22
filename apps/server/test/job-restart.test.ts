import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { buildModule, buildReference, buildSku, buildUser } from './builders.js';
import { queryOnce, withScratchPostgres } from './scratch-postgres.js';
import { callOver, loginOver, startServer, waitUntil } from './server-process.js';

/**
 * A server killed (SIGKILL) in the middle of a publish job: after a restart the job is resumed and
 * the module ends SUBMITTED, never stuck half-way. Once on the embedded database, once on PostgreSQL.
 */
async function prepare(database: Database) {
  await migrate(database);
  const db = database.db;
  await buildReference(db);
  const scope = { brands: ['AUR'], zones: ['EU'] };
  await buildUser(db, { username: 'pub', password: 'pw', role: 'SUBMITTER', grants: { view: scope, edit: scope, submit: scope } });
  const sku = await buildSku(db);
  await buildModule(db, { moduleName: 'KILLME', skus: [{ upc: sku.upc }] });
}

async function killDuringPublish(env: Record<string, string>) {
  const key = { moduleName: 'KILLME', monthId: 'M01_2027' };
  const first = await startServer({ ...env, PLANNING_SYSTEM_DELAY_MS: '8000' });
  let token: string;
  let jobId: number;
  try {
    token = await loginOver(first.url, 'pub', 'pw');
    expect((await callOver(first, token, 'POST', '/api/module/lock', [key])).body[0].acquired).toBe(true);
    const published = await callOver(first, token, 'POST', '/api/module/publish', key);
    expect(published.status).toBe(200);
    jobId = published.body.jobId;
    // The job is in the hands of the first process, waiting on the planning system: kill it now.
    await waitUntil('the job to run', async () => ((await callOver(first, token, 'GET', `/api/jobs/${jobId}`)).body.status === 'RUNNING' ? true : undefined));
  } finally {
    first.child.kill('SIGKILL');
    await first.stop();
  }
  const second = await startServer({ ...env, PLANNING_SYSTEM_DELAY_MS: '0' });
  try {
    const job = await waitUntil('the job to finish', async () => {
      const j = (await callOver(second, token, 'GET', `/api/jobs/${jobId}`)).body;
      return j.status === 'DONE' || j.status === 'FAILED' ? j : undefined;
    });
    expect(job.status).toBe('DONE');
    const [module] = (await callOver(second, token, 'POST', '/api/module/details', [key])).body;
    expect(module.status).toBe('SUBMITTED');
    expect(module.publicationDate).not.toBeNull();
  } finally {
    await second.stop();
  }
}

describe('a server killed during a publish job', () => {
  it('resumes the job after a restart on the embedded database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-kill-'));
    try {
      const database = await openDatabase({ dataDir });
      await prepare(database);
      await database.close();
      await killDuringPublish({ DATA_DIR: dataDir, DEMO_DATA: 'never' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'resumes the job in another process on PostgreSQL once the dead one stops beating',
    async () =>
      withScratchPostgres('bo_kill', async (url) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-kill-pg-'));
        try {
          const database = await openDatabase({ url });
          await prepare(database);
          await database.close();
          await killDuringPublish({ DATABASE_URL: url, DATA_DIR: dataDir, DEMO_DATA: 'never', JOB_STALE_SECONDS: '2' });
          expect(await queryOnce(url, "SELECT status, attempts FROM jobs WHERE kind = 'publish'")).toEqual([{ status: 'DONE', attempts: 2 }]);
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }),
    180_000,
  );
});
