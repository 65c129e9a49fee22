/**
 * Which spool folders a start-up removes (spool.ts `sweepSpool`): those of dead processes of this host and
 * old ones of other hosts; never a live process's, nor anything of another shape.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSpoolDir, ORPHAN_AFTER_MS, processStart, spoolRoot, sweepSpool } from './spool.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bo-spool-'));
});
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, '-') || 'host';
const folder = async (name: string, ageMs = 0) => {
  const dir = path.join(spoolRoot(dataDir), name);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'registry'), 'upc\n');
  const at = new Date(Date.now() - ageMs);
  await fs.utimes(dir, at, at);
  return name;
};
const left = async () => (await fs.readdir(spoolRoot(dataDir))).sort();

/** The pid of a process that has ended (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('spool folders', () => {
  it('makes folders named after this process under DATA_DIR/spool, and a sweep keeps them', async () => {
    const mine = await makeSpoolDir(dataDir);
    expect(path.dirname(mine)).toBe(spoolRoot(dataDir));
    expect(path.basename(mine)).toMatch(new RegExp(`^${host.replace(/[.]/g, '\\.')}_${process.pid}_(\\d+|x)_[A-Za-z0-9]+$`));
    expect(await sweepSpool(dataDir)).toEqual([]);
    expect(await left()).toEqual([path.basename(mine)]);
  });

  it('removes the folders of dead processes of this host and of a pid now given to another process, and keeps live ones', async () => {
    const parentStart = await processStart(process.ppid);
    const dead = await folder(`${host}_${deadPid()}_123_dead01`);
    const live = await folder(`${host}_${process.ppid}_${parentStart ?? 'x'}_live01`);
    const liveNoStart = await folder(`${host}_${process.ppid}_x_live02`);
    // The pid runs, but a process started at another time: the owner is gone.
    const reused = parentStart === null ? null : await folder(`${host}_${process.ppid}_${Number(parentStart) + 1}_reuse1`);
    const removed = await sweepSpool(dataDir);
    expect(removed.sort()).toEqual([dead, ...(reused ? [reused] : [])].sort());
    expect(await left()).toEqual([live, liveNoStart].sort());
  });

  it('removes another host’s folders only once they are older than ORPHAN_AFTER_MS, and nothing of another shape', async () => {
    const young = await folder('other-host_4242_99_young1', ORPHAN_AFTER_MS - 60_000);
    const old = await folder('other-host_4242_99_old001', ORPHAN_AFTER_MS + 60_000);
    const stranger = await folder('notes', ORPHAN_AFTER_MS * 2);
    const file = `${host}_${deadPid()}_1_file01`;
    await fs.writeFile(path.join(spoolRoot(dataDir), file), 'not a folder');
    expect(await sweepSpool(dataDir)).toEqual([old]);
    expect(await left()).toEqual([young, stranger, file].sort());
  });

  it('answers nothing when there is no spool folder yet', async () => {
    expect(await sweepSpool(dataDir)).toEqual([]);
  });
});
