import { expect } from 'vitest';
import { FILE_LOADER_TEXTS, type UploadItem } from '@bo/shared/uploads';
import { LOADER_FILE_KINDS, type LoaderFileKind } from '../src/areas/uploads/release-loader/formats.js';
import { callOver, waitUntil, type RunningServer } from './server-process.js';

/**
 * Day one at a retailer (issue 33), the calls a new installation is filled with: a release's five files
 * downloaded, sent to Upload Files as a preview, the preview applied. Shared by the process test
 * (empty-installation.test.ts) and the browser test on the filled installation (web e2e).
 */

/** The release the demo data opens and the tests move between installations. */
export const RELEASE = 'R2027';

export type Files = Record<LoaderFileKind, Buffer>;

export async function download(server: RunningServer, token: string, release = RELEASE): Promise<Files> {
  const files = {} as Files;
  for (const kind of LOADER_FILE_KINDS) {
    const res = await fetch(`${server.url}/data/fileLoader/release/${release}/${kind}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status, kind).toBe(200);
    files[kind] = Buffer.from(await res.arrayBuffer());
  }
  return files;
}

export async function waitForUpload(server: RunningServer, token: string, id: number): Promise<UploadItem> {
  return waitUntil(
    `upload ${id} to finish`,
    async () => {
      const list = (await callOver(server, token, 'GET', '/api/uploadStatus/')).body as UploadItem[];
      const item = list.find((u) => u.id === id);
      return item && item.status !== 'WIP' ? item : undefined;
    },
    300_000,
    250,
  );
}

/** Upload Files with a preview: the upload's state and response once the preview is computed. */
export async function preview(server: RunningServer, token: string, files: Files, ext: string, release = RELEASE): Promise<UploadItem> {
  const form = new FormData();
  form.append('releaseId', release);
  form.append('type', 'massive');
  form.append('preview', 'true');
  for (const kind of LOADER_FILE_KINDS) form.append(kind, new Blob([new Uint8Array(files[kind])]), `${release}-${kind}.${ext}`);
  const res = await fetch(`${server.url}/data/fileLoader/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as { upload: UploadItem };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return waitForUpload(server, token, body.upload.id);
}

/** Applies a ready preview and waits for the load: DONE. */
export async function apply(server: RunningServer, token: string, previewed: UploadItem): Promise<UploadItem> {
  expect(previewed.status, previewed.response ?? '').toBe('PREVIEW');
  const applied = await callOver(server, token, 'POST', `/data/fileLoader/${previewed.id}/apply`);
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const done = await waitForUpload(server, token, previewed.id);
  expect(done.status, done.response ?? '').toBe('DONE');
  expect(done.response).toContain(FILE_LOADER_TEXTS.uploaded);
  return done;
}
