import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { CELL_TEXT_REASONS, FORMATS, RELEASE_FILE_KINDS, type ReleaseFileKind } from '../src/areas/uploads/release-loader/formats.js';
import { prepareReleaseDatabase, RELEASE_FILES_RELEASE } from './release-files.js';
import { withScratchPostgres } from './scratch-postgres.js';
import { callOver, loginOver, startServer, waitUntil, type RunningServer } from './server-process.js';

/**
 * A NUL byte in a cell of a release file, against a real server process: the upload ends (ERROR, the cell
 * named), and the admin's next upload is accepted at once — no 409 until a restart. Before the fix the staging
 * insert failed, recording the error (the statement's parameters, NUL included) failed too, and the job stayed
 * RUNNING in the hands of a process that would never requeue it.
 */
const FILES: Record<ReleaseFileKind, string[]> = {
  registry: ['upc,skuId,model,color,colorDescription,size,materialCode,skuCode,brandCode,collection,srp,whsprice,releaseDate,insertDate,gender,frameMaterial,marketingTheme',
    '800000000001,1,AU4012,C01,Black,52,M1,S1,AUR,SUN,129.90,60,2026-11-01,2026-10-01,Unisex,Acetate,Summer'],
  segment: ['storeJda,codiceStoreSap,storeName,countryCode,customerSegmentation,segmentationLabel,planningChannelId,starsCustomer,starsCustomerName,starsCustomerCountry,starsCustomerPlanningChannel,distributionChannel',
    'S1,SAP1,Store 1,IT,SILVER,Silver,RETAIL,C100,Ottica Roma,IT,RETAIL,Optician'],
  module: ['moduleName,monthId,moduleLabel,moduleDescription,macroFamily,brandCode,collection,starsZones,upc', 'MOD1,M01_2027,Label,Plain,PILOT,AUR,SUN,EU,800000000001'],
  cluster: ['clusterId,monthId,clusterLabel,brandCode,collection,kind,value', 'CL1,M01_2027,Cluster,AUR,SUN,CLUSTER,', 'CL1,M01_2027,Cluster,AUR,SUN,MODULE,MOD1'],
};

async function upload(server: RunningServer, token: string, files: Record<ReleaseFileKind, string[]>) {
  const form = new FormData();
  form.append('releaseId', RELEASE_FILES_RELEASE);
  form.append('type', 'delta');
  for (const kind of RELEASE_FILE_KINDS) form.append(FORMATS[kind].field, new Blob([`${files[kind].join('\n')}\n`], { type: 'text/csv' }), `${kind}.csv`);
  const res = await fetch(`${server.url}/data/fileLoader/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as { jobId: number } };
}

async function jobEnd(server: RunningServer, token: string, jobId: number) {
  return waitUntil(`job ${jobId} to end`, async () => {
    const job = (await callOver(server, token, 'GET', `/api/jobs/${jobId}`)).body as { status: string; response: string | null };
    return job.status === 'DONE' || job.status === 'FAILED' ? job : undefined;
  }, 20_000);
}

async function nulThenNext(env: Record<string, string>) {
  const server = await startServer({ DEMO_DATA: 'never', ...env });
  try {
    const token = await loginOver(server.url, 'boss', 'pw');
    const withNul = { ...FILES, module: [FILES.module[0]!, FILES.module[1]!.replace('Plain', 'Pl\u0000ain')] };
    const first = await upload(server, token, withNul);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const failed = await jobEnd(server, token, first.body.jobId);
    expect(failed.status).toBe('FAILED');
    expect(failed.response!.split(';')).toContain(`module.csv, row 2, moduleDescription: ${CELL_TEXT_REASONS.nul}`);
    // The same process, no restart: the next upload is accepted and loads.
    const next = await upload(server, token, FILES);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect((await jobEnd(server, token, next.body.jobId)).status).toBe('DONE');
  } finally {
    await server.stop();
  }
}

describe('a NUL byte in a release file, on a server process', () => {
  it('ends the upload with the cell named, and the next upload is accepted (embedded database)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-nul-'));
    try {
      await prepareReleaseDatabase(() => openDatabase({ dataDir }));
      await nulThenNext({ DATA_DIR: dataDir });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)('ends the upload with the cell named, and the next upload is accepted (PostgreSQL)', async () =>
    withScratchPostgres('bo_nul', async (url) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-nul-pg-'));
      try {
        await prepareReleaseDatabase(() => openDatabase({ url }));
        await nulThenNext({ DATABASE_URL: url, DATA_DIR: dataDir });
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }), 120_000);
});
