/**
 * The bulk work of the load benchmark's bulk phase (bulk-during-morning.ts), each sent through the product's HTTP API
 * as an admin would send it from the pages, its job awaited as the pages poll it (`GET /api/jobs/:id`):
 *  - a release load: Upload Files (`POST /data/fileLoader/import`, multipart, `massive`) of the five files of
 *    bench-release-files.ts;
 *  - a module massive edit (`POST /api/module/massiveEdit/`) of rows from massive-edit-rows.ts;
 *  - an export with photos (`POST /data/export/xls/photo_massive/module`), the file downloaded (from the answer, or
 *    from `/data/export/files/:id` once its job is done when the call answered 202).
 * Each answers its own time (from the call to its job's end, or to the file read) and what it did.
 */
import { openAsBlob } from 'node:fs';
import type pg from 'pg';
import type { JobStatus } from '@bo/shared/jobs';
import type { MassiveEditResult, ModuleMassiveEditRowInput } from '@bo/shared/massive-edit';
import { FORMATS, LOADER_FILE_KINDS, type LoaderFileKind } from '../src/areas/uploads/release-loader/formats.js';
import { writeBenchUsers } from './bench-users.js';
import { BENCH_RELEASE, openBenchRelease } from './bench-release-files.js';
import type { GeneratedFile } from '../test/release-files.js';
import { request, sleep } from './load-client.js';

export interface BulkJobResult {
  /** What it did, for the tables: "release load (100,000 module lines)". */
  name: string;
  ok: boolean;
  /** From the first call to the job's end (the file downloaded, for the export). */
  seconds: number;
  /** The job's row: time queued (created → started) and run (started → finished); null when not read. */
  queuedS: number | null;
  runS: number | null;
  detail: string;
}

const POLL_MS = 250;

/** The bulk phase's admin (`bench_bulk_admin`, password demo), created or reset in SQL; answers its token. */
export async function bulkAdmin(base: string, client: pg.Client): Promise<string> {
  await writeBenchUsers(client, 'bench_bulk_', [{ username: 'bench_bulk_admin', role: 'ADMIN', grants: [] }]);
  const res = await request(base, 'POST', '/api/authorization/login', undefined, { username: 'bench_bulk_admin', password: 'demo' });
  if (res.status !== 200) throw new Error(`login bench_bulk_admin: ${res.status} ${res.text.slice(0, 200)}`);
  return (JSON.parse(res.text) as { access_token: string }).access_token;
}

/** A call with a body the load client does not send (multipart) or an answer it should not time out on (an export waits a minute). */
async function call(base: string, token: string, method: string, url: string, body?: FormData | unknown): Promise<{ status: number; bytes: Buffer; header: (name: string) => string | null }> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  const res = await fetch(`${base}${url}`, init);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), header: (name) => res.headers.get(name) };
}

/** Polls a job until it ends, as the pages do. */
async function awaitJob(base: string, token: string, jobId: number): Promise<JobStatus> {
  for (;;) {
    const res = await request(base, 'GET', `/api/jobs/${jobId}`, token);
    if (res.status !== 200) throw new Error(`job ${jobId}: ${res.status} ${res.text.slice(0, 200)}`);
    const job = JSON.parse(res.text) as JobStatus;
    if (job.status === 'DONE' || job.status === 'FAILED') return job;
    await sleep(POLL_MS);
  }
}

async function jobTimes(client: pg.Client, jobId: number): Promise<{ queuedS: number | null; runS: number | null }> {
  const { rows } = await client.query<{ queued: number | null; run: number | null }>(
    `SELECT extract(epoch FROM started_at - created_at)::float8 AS queued, extract(epoch FROM finished_at - started_at)::float8 AS run FROM jobs WHERE id = $1`,
    [jobId],
  );
  return { queuedS: rows[0]?.queued ?? null, runS: rows[0]?.run ?? null };
}

const count = (n: number) => n.toLocaleString('en-US');

/** Upload Files, `massive`, into BENCH_RELEASE (opened for it), the upload's job awaited. */
export async function releaseLoad(base: string, token: string, client: pg.Client, files: Record<LoaderFileKind, GeneratedFile>): Promise<BulkJobResult> {
  const name = `release load (${count(files.module.rows)} module lines)`;
  return openBenchRelease(client, async () => {
    const started = performance.now();
    const form = new FormData();
    form.append('releaseId', BENCH_RELEASE);
    form.append('type', 'massive');
    for (const kind of LOADER_FILE_KINDS) form.append(FORMATS[kind].field, await openAsBlob(files[kind].path, { type: 'text/csv' }), `${kind}.csv`);
    const res = await call(base, token, 'POST', '/data/fileLoader/import', form);
    const uploadS = (performance.now() - started) / 1000;
    if (res.status !== 200) return { name, ok: false, seconds: uploadS, queuedS: null, runS: null, detail: `upload refused: ${res.status} ${res.bytes.toString('utf8').slice(0, 300)}` };
    const { jobId } = JSON.parse(res.bytes.toString('utf8')) as { jobId: number };
    const job = await awaitJob(base, token, jobId);
    const seconds = (performance.now() - started) / 1000;
    const times = await jobTimes(client, jobId);
    const mb = Object.values(files).reduce((n, f) => n + f.size, 0) / 1e6;
    const detail = `${job.status}; five files, ${mb.toFixed(0)} MB, uploaded in ${uploadS.toFixed(1)} s${job.status === 'DONE' ? '' : `: ${job.response ?? ''}`.slice(0, 300)}`;
    return { name, ok: job.status === 'DONE', seconds, ...times, detail };
  });
}

/** A module massive edit of `rows` (not published), its job awaited; every row must be applied. */
export async function massiveEdit(base: string, token: string, client: pg.Client, rows: ModuleMassiveEditRowInput[]): Promise<BulkJobResult> {
  const name = `massive edit (${count(rows.length)} module rows)`;
  const started = performance.now();
  const res = await call(base, token, 'POST', '/api/module/massiveEdit/', { massiveEditList: rows, toPublish: false, dryRun: false });
  const answer = JSON.parse(res.bytes.toString('utf8')) as { jobId?: number; status: string };
  if (res.status !== 200 || !answer.jobId) return { name, ok: false, seconds: (performance.now() - started) / 1000, queuedS: null, runS: null, detail: `refused: ${res.status} ${res.bytes.toString('utf8').slice(0, 300)}` };
  const job = await awaitJob(base, token, answer.jobId);
  const seconds = (performance.now() - started) / 1000;
  const result = job.result as MassiveEditResult | null;
  const c = result?.counts;
  const ok = job.status === 'DONE' && result?.status === 'DONE' && c?.saved === rows.length;
  const detail = c ? `${job.status}, ${result!.status}: saved ${c.saved}, unchanged ${c.unchanged}, failed ${c.failed}` : `${job.status}: ${job.response ?? ''}`.slice(0, 300);
  return { name, ok, seconds, ...(await jobTimes(client, answer.jobId)), detail };
}

/** A spreadsheet export with photos of `items` (their saved content), the file downloaded. */
export async function photoExport(base: string, token: string, client: pg.Client, templateId: number, items: { moduleName: string; monthId: string }[]): Promise<BulkJobResult> {
  const name = `export with photos (${count(items.length)} modules)`;
  const started = performance.now();
  const res = await call(base, token, 'POST', `/data/export/xls/photo_massive/module?templateId=${templateId}&status=Saved`, items);
  let file = res.bytes;
  let times: { queuedS: number | null; runS: number | null } = { queuedS: null, runS: null };
  let how = 'answered by the call';
  if (res.status === 202) {
    const { exportId, jobId } = JSON.parse(res.bytes.toString('utf8')) as { exportId: number; jobId: number };
    const job = await awaitJob(base, token, jobId);
    if (job.status !== 'DONE') return { name, ok: false, seconds: (performance.now() - started) / 1000, queuedS: null, runS: null, detail: `${job.status}: ${job.response ?? ''}`.slice(0, 300) };
    const download = await call(base, token, 'GET', `/data/export/files/${exportId}`);
    if (download.status !== 200) return { name, ok: false, seconds: (performance.now() - started) / 1000, queuedS: null, runS: null, detail: `download: ${download.status}` };
    file = download.bytes;
    times = await jobTimes(client, jobId);
    how = 'downloaded once its job was done (the call answered 202)';
  } else if (res.status !== 200) {
    return { name, ok: false, seconds: (performance.now() - started) / 1000, queuedS: null, runS: null, detail: `refused: ${res.status} ${res.bytes.toString('utf8').slice(0, 300)}` };
  } else {
    const exportId = Number(res.header('x-export-id'));
    const { rows } = await client.query<{ job_id: number | null }>('SELECT job_id FROM export_files WHERE id = $1', [exportId]);
    if (rows[0]?.job_id) times = await jobTimes(client, rows[0].job_id);
  }
  const seconds = (performance.now() - started) / 1000;
  // An xlsx is a zip: it starts with PK.
  const ok = file.length > 0 && file.subarray(0, 2).toString('latin1') === 'PK';
  return { name, ok, seconds, ...times, detail: `${(file.length / 1e6).toFixed(1)} MB xlsx, ${how}` };
}
