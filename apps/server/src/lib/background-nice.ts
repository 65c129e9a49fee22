import { readdirSync } from 'node:fs';
import os from 'node:os';

/**
 * The nice value of background work (Linux): the job process of a server with WORKERS > 1 (server.ts), the worker
 * processes that type release files and draw exports (worker-sessions.ts) and the PostgreSQL backends of the jobs'
 * connections (db/background-priority.ts). On a machine
 * whose cores are all busy the planners' requests go first and the background work takes what is left; on an idle one
 * it runs at full speed all the same.
 */
export const BACKGROUND_NICE = 10;

/** Lowers the priority of process or thread `id` to BACKGROUND_NICE (never raises it). Throws when not allowed. */
export function lowerToBackgroundNice(id: number): void {
  if (os.getPriority(id) < BACKGROUND_NICE) os.setPriority(id, BACKGROUND_NICE);
}

/**
 * Lowers every thread of this process to BACKGROUND_NICE: on Linux a nice value is a thread's, and V8's helper threads
 * (garbage collection, compilation) and libuv's were started before this code ran. A thread started later takes the
 * value of the thread that starts it. Answers false where that cannot be done (not Linux, or not allowed): the process
 * then keeps its priority.
 */
export function lowerEveryThreadToBackgroundNice(): boolean {
  try {
    for (const tid of readdirSync('/proc/self/task')) lowerToBackgroundNice(Number(tid));
    return true;
  } catch {
    return false;
  }
}
