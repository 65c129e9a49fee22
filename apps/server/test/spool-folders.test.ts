import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { makeSpoolDir, spoolRoot } from '../src/lib/spool.js';
import { buildUser } from './builders.js';
import { loginOver, startServer, waitUntil } from './server-process.js';

/**
 * A server killed (SIGKILL) in the middle of a release upload leaves its spool folder (the files as they
 * arrive, up to RELEASE_FILE_MAX_MB each) under DATA_DIR/spool; the next start removes it, and never the
 * folder of a live process (here: the test's own). Before, the folder was under the system's temp folder and
 * stayed there for ever.
 */
const MB = 1024 * 1024;

/** Starts an upload whose body never ends: a multipart registry file of which `bytes` arrive. */
function startEndlessUpload(url: string, token: string, bytes: number): http.ClientRequest {
  const boundary = '----bo-spool-test';
  const request = http.request(`${url}/data/fileLoader/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
  });
  request.on('error', () => undefined);
  request.write(`--${boundary}\r\nContent-Disposition: form-data; name="registry"; filename="registry.csv"\r\nContent-Type: text/csv\r\n\r\nupc,skuId\n`);
  const line = Buffer.from('800000000001,1\n'.repeat(4096));
  for (let sent = 0; sent < bytes; sent += line.length) request.write(line);
  return request;
}

describe('spool folders of a server killed mid-upload', () => {
  it('are removed at the next start; a live process’s folder is kept', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-spool-kill-'));
    try {
      const database = await openDatabase({ dataDir });
      await migrate(database);
      await buildUser(database.db, { username: 'boss', password: 'pw', role: 'ADMIN' });
      await database.close();
      // A spool folder of a live process: this one.
      const live = await makeSpoolDir(dataDir);
      fs.writeFileSync(path.join(live, 'registry'), 'upc\n');

      const env = { DATA_DIR: dataDir, DEMO_DATA: 'never' };
      const first = await startServer(env);
      let orphan = '';
      let upload: http.ClientRequest | null = null;
      try {
        const token = await loginOver(first.url, 'boss', 'pw');
        upload = startEndlessUpload(first.url, token, 4 * MB);
        orphan = await waitUntil('the upload to reach the spool folder', async () => {
          for (const name of fs.readdirSync(spoolRoot(dataDir))) {
            const file = path.join(spoolRoot(dataDir), name, 'registry');
            if (name.includes(`_${first.child.pid}_`) && fs.existsSync(file) && fs.statSync(file).size > MB) return path.join(spoolRoot(dataDir), name);
          }
          return undefined;
        }, 30_000, 50);
      } finally {
        first.child.kill('SIGKILL');
        await first.stop();
        upload?.destroy();
      }
      // Killed mid-upload: its folder is still there.
      expect(fs.existsSync(orphan)).toBe(true);

      const second = await startServer(env);
      try {
        expect(fs.existsSync(orphan)).toBe(false);
        expect(fs.readdirSync(live)).toEqual(['registry']);
        expect(fs.readdirSync(spoolRoot(dataDir))).toEqual([path.basename(live)]);
      } finally {
        await second.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
