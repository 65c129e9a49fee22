/**
 * The nice value of background work (Linux): the worker threads that type release files and draw exports
 * (thread-sessions.ts) and the PostgreSQL backends of the jobs' connections (db/background-priority.ts). On a machine
 * whose cores are all busy the planners' requests go first and the background work takes what is left; on an idle one
 * it runs at full speed all the same.
 */
export const BACKGROUND_NICE = 10;
