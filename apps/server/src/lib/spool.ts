/**
 * Spool folders (docs/operations.md "Spool folders"): where a request writes a large upload to disk before it
 * goes into the database (Upload Files' four release files, up to RELEASE_FILE_MAX_MB each). They live under
 * DATA_DIR/spool, one folder per request, named after the process that owns it:
 *
 *   <host>_<pid>_<start>_<random>     e.g. backoffice-1_4242_1834567_Xa91bQ
 *
 * `start` is the process's start time as /proc/<pid>/stat gives it (clock ticks since boot; `x` where there is
 * no /proc). A request removes its folder when it ends; a process killed in the middle (kill -9, a crash, a
 * power cut) cannot, so each process at start-up removes the folders no live process owns (`sweepSpool`):
 * - on this host: those whose pid is not running, or runs a process started at another time (the pid was
 *   given again after a reboot or a crash), never those of a live process — its own, a sibling worker's;
 * - of another host (DATA_DIR shared between machines): this host cannot see its processes, so only those
 *   untouched for ORPHAN_AFTER_MS (no upload takes that long);
 * - anything else under DATA_DIR/spool (a name of another shape) is left alone.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A spool folder of another host, untouched this long, is taken to be an orphan. */
export const ORPHAN_AFTER_MS = 24 * 60 * 60 * 1000;

/** The folder of spool folders under the data directory. */
export const spoolRoot = (dataDir: string) => path.join(dataDir, 'spool');

/** The host as a name part: letters, digits, dots and dashes only (the `_` separates the parts). */
const HOST = os.hostname().replace(/[^A-Za-z0-9.-]/g, '-') || 'host';

/** When the process with this pid started, as /proc gives it (clock ticks since boot), or null (no such process, no /proc). */
export async function processStart(pid: number): Promise<string | null> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

let ownStart: Promise<string> | null = null;
/** This process's own name part: host, pid and start. */
async function ownerPart(): Promise<string> {
  ownStart ??= processStart(process.pid).then((start) => start ?? 'x');
  return `${HOST}_${process.pid}_${await ownStart}_`;
}

/** A new spool folder of this process (mode 0700), for one request: the caller removes it when done. */
export async function makeSpoolDir(dataDir: string): Promise<string> {
  const root = spoolRoot(dataDir);
  await fs.mkdir(root, { recursive: true });
  return fs.mkdtemp(path.join(root, await ownerPart()));
}

const NAME = /^([A-Za-z0-9.-]+)_(\d+)_(\d+|x)_[A-Za-z0-9]+$/;

/** Whether a process with this pid exists on this host (EPERM: it does, as another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the owner named by a spool folder is surely gone (see the file's comment). */
async function orphaned(name: string, modifiedMs: number, now: number): Promise<boolean> {
  const match = NAME.exec(name);
  if (!match) return false;
  const [, host, pidText, start] = match;
  if (host !== HOST) return now - modifiedMs > ORPHAN_AFTER_MS;
  const pid = Number(pidText);
  if (pid === process.pid) return start !== (await ownStart) && start !== 'x' && (await ownStart) !== 'x';
  if (!pidAlive(pid)) return true;
  if (start === 'x') return false;
  const running = await processStart(pid);
  return running !== null && running !== start;
}

/**
 * Removes the spool folders that no live process owns (see the file's comment) and answers their names.
 * Run at start-up; safe while other processes (other workers, other hosts) use their own folders.
 */
export async function sweepSpool(dataDir: string, now = Date.now()): Promise<string[]> {
  await ownerPart();
  const root = spoolRoot(dataDir);
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const folder = path.join(root, entry.name);
    let modifiedMs: number;
    try {
      modifiedMs = (await fs.stat(folder)).mtimeMs;
    } catch {
      continue;
    }
    if (!(await orphaned(entry.name, modifiedMs, now))) continue;
    await fs.rm(folder, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
