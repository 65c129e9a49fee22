import os from 'node:os';

/**
 * The nice value of background work (Linux): the worker processes that type release files and draw exports
 * (worker-sessions.ts) and the PostgreSQL backends of the jobs' connections (db/background-priority.ts). On a machine
 * whose cores are all busy the planners' requests go first and the background work takes what is left; on an idle one
 * it runs at full speed all the same.
 */
export const BACKGROUND_NICE = 10;

/** Lowers the priority of process or thread `id` to BACKGROUND_NICE (never raises it). Throws when not allowed. */
export function lowerToBackgroundNice(id: number): void {
  if (os.getPriority(id) < BACKGROUND_NICE) os.setPriority(id, BACKGROUND_NICE);
}
