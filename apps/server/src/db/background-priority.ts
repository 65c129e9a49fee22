/**
 * Background work's PostgreSQL connections at a lower CPU priority, when PostgreSQL runs on this machine.
 *
 * A release load, a massive edit or an export is PostgreSQL work as much as Node's: its backend competes for the same
 * cores as the backends answering the planners' searches and saves. PostgreSQL has no priority of its own, but each
 * connection is a process of the operating system: when that process is on this machine (PostgreSQL beside the
 * server, as on the 2-core machine of docs/performance.md) and we may renice it (same user, or root), the job's
 * backend gets the nice value of the job's worker processes (lib/worker-sessions.ts). On an idle machine it runs at full
 * speed all the same; with PostgreSQL elsewhere, or without the right, nothing changes (logged once).
 *
 * The backend is found by its pid (`pg_backend_pid()`), and only reniced when `/proc/<pid>/cmdline` is a PostgreSQL
 * backend of this very connection: its title carries the client's address and port (`127.0.0.1(54321)`), which must be
 * this socket's local port (a unix socket's title says `[local]`). A pid of another machine or another PID namespace
 * is thereby never touched. The niceness dies with the backend: the background pool's connections serve jobs only.
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { lowerToBackgroundNice } from '../lib/background-nice.js';

/** Why a backend was not reniced, or null when it was. */
export type ReniceRefusal = string | null;

/** The title PostgreSQL gives the backend of a client at `port` (TCP), or of a unix-socket client (port undefined). */
export function isBackendOf(cmdline: string, port: number | undefined): boolean {
  if (!cmdline.startsWith('postgres: ')) return false;
  return port === undefined ? cmdline.includes(' [local] ') : cmdline.includes(`(${port}) `);
}

/** The local TCP port of a pg client's socket, or undefined on a unix socket. */
function localPortOf(client: pg.Client): number | undefined {
  const stream = (client as unknown as { connection?: { stream?: { localPort?: unknown } } }).connection?.stream;
  return typeof stream?.localPort === 'number' ? stream.localPort : undefined;
}

/**
 * Renices the backend of `client` to the background nice when it is a process of this machine that we may renice;
 * answers why not otherwise. Never throws.
 */
export async function lowerBackendPriority(client: pg.Client): Promise<ReniceRefusal> {
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = rows[0]?.pid;
    if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return 'no backend pid';
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      return 'PostgreSQL is not on this machine';
    }
    if (!isBackendOf(cmdline, localPortOf(client))) return 'PostgreSQL is not on this machine';
    lowerToBackgroundNice(pid);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
