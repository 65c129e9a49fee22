import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../src/db/client.js';
import { sql } from 'drizzle-orm';
import { migrate } from '../src/db/migrate.js';
import { moduleSkus, modules, moduleStarsZones } from '../src/db/schema.js';
import { buildFamily, buildReference, buildSku, buildUser } from './builders.js';
import { queryOnce, withScratchPostgres } from './scratch-postgres.js';
import { callOver, loginOver, startServer, waitUntil } from './server-process.js';

/**
 * A server killed (SIGKILL) in the middle of a massive edit job: after a restart the job resumes from
 * its checkpoint and every item-month is changed exactly once (its version moved by one, one audit
 * entry, one recorded outcome). Once on the embedded database, once on PostgreSQL.
 */
const MODULES = 300;
const MONTHS = ['M01_2027', 'M02_2027'];

async function prepare(database: Database): Promise<string> {
  await migrate(database);
  const db = database.db;
  await buildReference(db);
  await buildUser(db, { username: 'boss', password: 'pw', role: 'ADMIN' });
  await buildFamily(db, 'PILOT');
  const kept = await buildSku(db);
  const added = await buildSku(db);
  for (const monthId of MONTHS) {
    const rows = await db
      .insert(modules)
      .values(Array.from({ length: MODULES }, (_, i) => ({ moduleName: `KILL_${i}`, monthId, moduleLabel: `Kill ${i}`, macroFamily: 'PILOT', brandCode: 'AUR', collection: 'SUN' })))
      .returning({ id: modules.id });
    await db.insert(moduleStarsZones).values(rows.map((r) => ({ moduleId: r.id, starsZone: 'EU' })));
    await db.insert(moduleSkus).values(rows.map((r) => ({ moduleId: r.id, upc: kept.upc, mustHave: true, status: 'ADDED' })));
  }
  return added.upc;
}

type Query = (sqlText: string) => Promise<Record<string, unknown>[]>;

async function killDuringMassiveEdit(env: Record<string, string>, upc: string, withQuery: (checks: (query: Query) => Promise<void>) => Promise<void>) {
  const first = await startServer(env);
  let token: string;
  let jobId: number;
  let progressAtKill: number;
  try {
    token = await loginOver(first.url, 'boss', 'pw');
    const rows = Array.from({ length: MODULES }, (_, i) => ({ moduleLabels: [`KILL_${i}`], monthIdList: MONTHS, upcToAddList: [upc], upcStatus: 'EL' }));
    const started = await callOver(first, token, 'POST', '/api/module/massiveEdit/', { massiveEditList: rows, toPublish: false });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    jobId = started.body.jobId;
    // Kill it once some steps are done and most are not.
    progressAtKill = await waitUntil('the job to be under way', async () => {
      const job = (await callOver(first, token, 'GET', `/api/jobs/${jobId}`)).body;
      return job.status === 'RUNNING' && job.progress >= 5 ? (job.progress as number) : undefined;
    });
  } finally {
    first.child.kill('SIGKILL');
    await first.stop();
  }
  expect(progressAtKill).toBeLessThan(90);
  const second = await startServer(env);
  try {
    const job = await waitUntil('the job to finish', async () => {
      const j = (await callOver(second, token, 'GET', `/api/jobs/${jobId}`)).body;
      return j.status === 'DONE' || j.status === 'FAILED' ? j : undefined;
    });
    expect(job.status).toBe('DONE');
    // Counts are rows (docs/MASSIVE-EDIT.md): every row saved; every module-month applied.
    expect(job.result.counts).toMatchObject({ saved: MODULES, partial: 0, unchanged: 0, failed: 0 });
    expect((job.result.rows as { items: { outcome: string }[] }[]).flatMap((r) => r.items).filter((i) => i.outcome === 'applied')).toHaveLength(MODULES * MONTHS.length);
  } finally {
    await second.stop();
  }
  await withQuery(async (query) => {
    // Exactly once: every module-month moved one version, holds the SKU once, and has one audit entry and one outcome.
    expect(await query(`SELECT version, count(*)::int AS n FROM modules GROUP BY version`)).toEqual([{ version: 2, n: MODULES * MONTHS.length }]);
    expect(await query(`SELECT count(*)::int AS n FROM module_skus WHERE upc = '${upc}' AND must_have = false`)).toEqual([{ n: MODULES * MONTHS.length }]);
    expect(await query(`SELECT count(*)::int AS n, count(DISTINCT (item_key, month_id))::int AS items FROM audit_log WHERE action = 'save'`)).toEqual([
      { n: MODULES * MONTHS.length, items: MODULES * MONTHS.length },
    ]);
    expect(await query(`SELECT count(*)::int AS n FROM job_steps WHERE job_id = ${jobId}`)).toEqual([{ n: MODULES * MONTHS.length }]);
    expect(await query(`SELECT attempts FROM jobs WHERE id = ${jobId}`)).toEqual([{ attempts: 2 }]);
  });
}

describe('a server killed during a massive edit job', () => {
  it('resumes the job after a restart on the embedded database: every module-month changed exactly once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-kill-me-'));
    try {
      const database = await openDatabase({ dataDir });
      const upc = await prepare(database);
      await database.close();
      await killDuringMassiveEdit({ DATA_DIR: dataDir, DEMO_DATA: 'never' }, upc, async (checks) => {
        const db = await openDatabase({ dataDir });
        try {
          await checks((text) => queryRows<Record<string, unknown>>(db.db, sql.raw(text)));
        } finally {
          await db.close();
        }
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'resumes the job in another process on PostgreSQL once the dead one stops beating',
    async () =>
      withScratchPostgres('bo_kill_me', async (url) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-kill-me-pg-'));
        try {
          const database = await openDatabase({ url });
          const upc = await prepare(database);
          await database.close();
          await killDuringMassiveEdit({ DATABASE_URL: url, DATA_DIR: dataDir, DEMO_DATA: 'never', JOB_STALE_SECONDS: '2' }, upc, (checks) => checks((text) => queryOnce(url, text)));
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }),
    300_000,
  );
});
