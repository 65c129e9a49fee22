import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { UploadItem } from '@bo/shared/uploads';
import { openDatabase, queryRows } from '../src/db/client.js';
import { FORMATS, RELEASE_FILE_KINDS } from '../src/areas/uploads/release-loader/formats.js';
import { prepareReleaseDatabase, RELEASE_FILES_RELEASE, writeReleaseFiles, type GeneratedFile } from './release-files.js';
import { queryOnce, withScratchPostgres } from './scratch-postgres.js';
import { callOver, loginOver, startServer, waitUntil, type RunningServer } from './server-process.js';

/**
 * A server killed (SIGKILL) in the middle of a release load (Upload Files, `massive`): right after the
 * kill no row of the load is visible — the load is one transaction — and after a restart the upload's
 * job runs the load again from the start and completes, every row exactly once. Once on the embedded
 * database, once on PostgreSQL (where the files take the COPY way and the module lines the bulk rewrite).
 */
const MODULE_ROWS = 100_000;
/** On the embedded database the load of EMBEDDED_MODULE_ROWS takes 15 s and more: the kill comes this long after its job starts. */
const EMBEDDED_KILL_AFTER_MS = 2_000;
const EMBEDDED_MODULE_ROWS = 200_000;
const COUNTED = ['skus', 'stores', 'modules', 'module_skus', 'module_stars_zones', 'clusters', 'cluster_stores', 'cluster_modules'] as const;
type Query = (sqlText: string) => Promise<Record<string, unknown>[]>;

async function counts(query: Query): Promise<Record<string, number>> {
  const [row] = await query(`SELECT ${COUNTED.map((t) => `(SELECT count(*)::int FROM ${t}) AS ${t}`).join(', ')}`);
  return row as Record<string, number>;
}

async function upload(server: RunningServer, token: string, files: Record<string, GeneratedFile>): Promise<{ jobId: number; upload: UploadItem }> {
  const form = new FormData();
  form.append('releaseId', RELEASE_FILES_RELEASE);
  form.append('type', 'massive');
  for (const kind of RELEASE_FILE_KINDS) form.append(FORMATS[kind].field, new Blob([fs.readFileSync(files[kind]!.path)], { type: 'text/csv' }), `${kind}.csv`);
  const res = await fetch(`${server.url}/data/fileLoader/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as { jobId: number; upload: UploadItem };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function killDuringLoad(env: Record<string, string>, prepare: () => Promise<void>, withQuery: (checks: (query: Query) => Promise<void>) => Promise<void>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-kill-load-'));
  try {
    const moduleRows = env.DATABASE_URL ? MODULE_ROWS : EMBEDDED_MODULE_ROWS;
    const files = await writeReleaseFiles(dir, moduleRows);
    await prepare();
    let before: Record<string, number> = {};
    await withQuery(async (query) => {
      before = await counts(query);
    });
    // LOG_LEVEL info: the log says when the job starts (the embedded case waits for that line).
    const serverEnv = { DEMO_DATA: 'never', LOG_LEVEL: 'info', ...env };
    const first = await startServer(serverEnv);
    let token: string;
    let jobId = 0;
    const embedded = !env.DATABASE_URL;
    try {
      token = await loginOver(first.url, 'boss', 'pw');
      if (embedded) {
        // On the embedded database the load's transaction holds the one connection: its progress cannot be
        // read, and calls may wait for it (even the upload's own answer). So the upload is not awaited and
        // the server's log says when the job starts; the kill comes EMBEDDED_KILL_AFTER_MS later. The load
        // of these files takes far longer; the checks after the kill prove it was cut short.
        void upload(first, token, files).catch(() => undefined);
        await waitUntil('the load to start', async () => (/"msg":"job started"[^\n]*upload-file-loader|upload-file-loader[^\n]*"msg":"job started"/.test(first.output()) ? true : undefined), 120_000, 20);
        await new Promise((resolve) => setTimeout(resolve, EMBEDDED_KILL_AFTER_MS));
      } else {
        const started = await upload(first, token, files);
        jobId = started.jobId;
        // Kill it once the load is under way (its progress written) and before it ends.
        const progress = await waitUntil('the load to be under way', async () => {
          const job = (await callOver(first, token, 'GET', `/api/jobs/${jobId}`)).body;
          if (job.status === 'DONE' || job.status === 'FAILED') throw new Error(`the load ended before the kill: ${JSON.stringify(job)}`);
          return job.status === 'RUNNING' && job.progress >= 1 ? (job.progress as number) : undefined;
        }, 120_000, 50);
        expect(progress).toBeLessThan(100);
      }
    } finally {
      first.child.kill('SIGKILL');
      await first.stop();
    }

    // Nothing of the load is visible: it was one transaction, and it never committed.
    let uploadId = 0;
    await withQuery(async (query) => {
      const [stored] = await query(`SELECT id, job_id FROM uploads WHERE type = 'FILE_LOADER'`);
      uploadId = Number(stored!.id);
      jobId = Number(stored!.job_id);
      expect(await counts(query)).toEqual(before);
      expect(await query(`SELECT status FROM jobs WHERE id = ${jobId}`)).toEqual([{ status: 'RUNNING' }]);
    });

    const second = await startServer(serverEnv);
    try {
      const done = await waitUntil('the upload to end', async () => {
        const list = (await callOver(second, token, 'GET', '/api/uploadStatus/')).body as UploadItem[];
        const item = list.find((u) => u.id === uploadId);
        return item && item.status !== 'WIP' ? item : undefined;
      }, 240_000, 250);
      expect(done.status, done.response ?? '').toBe('DONE');
      expect(done.response).toContain('The files have been uploaded');
    } finally {
      await second.stop();
    }
    // Loaded again from the start, every row exactly once.
    await withQuery(async (query) => {
      expect(await counts(query)).toEqual({
        skus: before.skus! + files.registry.rows,
        stores: before.stores! + files.segment.rows,
        modules: moduleRows / 50,
        module_skus: moduleRows,
        module_stars_zones: (moduleRows / 50) * 2,
        clusters: 2_000,
        cluster_stores: 2_000 * 20,
        cluster_modules: 2_000 * 10,
      });
      expect(await query(`SELECT attempts, status FROM jobs WHERE id = ${jobId}`)).toEqual([{ attempts: 2, status: 'DONE' }]);
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('a server killed during a release load', () => {
  it('leaves nothing of the load on the embedded database, and the restarted server loads it again once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-kill-load-data-'));
    try {
      await killDuringLoad({ DATA_DIR: dataDir }, () => prepareReleaseDatabase(() => openDatabase({ dataDir })), async (checks) => {
        const database = await openDatabase({ dataDir });
        try {
          await checks((text) => queryRows<Record<string, unknown>>(database.db, sql.raw(text)));
        } finally {
          await database.close();
        }
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'leaves nothing of the load on PostgreSQL, and another process loads it again once the dead one stops beating',
    async () =>
      withScratchPostgres('bo_kill_load', async (url) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-kill-load-pg-'));
        try {
          await killDuringLoad({ DATABASE_URL: url, DATA_DIR: dataDir, JOB_STALE_SECONDS: '2' }, () => prepareReleaseDatabase(() => openDatabase({ url })), (checks) =>
            checks((text) => queryOnce(url, text)),
          );
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }),
    600_000,
  );
});
