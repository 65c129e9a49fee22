/**
 * The sweeper of each server process (docs/LIVE.md "Locks follow people"): every SWEEP_MS (LOCK_LEASE_SECONDS / 4 when
 * shorter) it keeps the tabs whose stream is open here theirs, forgets presence not renewed for PRESENCE_TTL_SECONDS,
 * renews the leased locks of the items those tabs edit, and deletes leased locks whose lease ran out (their holders get
 * `lockLost`, lists their `item`). Idempotent: several processes sweeping at once delete each row once, and a lock
 * renewed meanwhile stays.
 */
import type { Db } from '../../db/client.js';
import { deleteLapsedLeases, deleteStalePresence, renewStreamLeases, touchTabs } from './live.repository.js';

const SWEEP_MS = 15_000;

interface SweeperOptions {
  db: Db;
  presenceTtlSeconds: number;
  /** The tabs whose stream is open in this process. */
  openTabs(): string[];
  onError(error: unknown): void;
  everyMs?: number;
}

async function sweepOnce(opts: SweeperOptions): Promise<void> {
  const tabs = opts.openTabs();
  await touchTabs(opts.db, tabs);
  // Stale presence first: a tab that stopped PUTting renews no lock below.
  await deleteStalePresence(opts.db, opts.presenceTtlSeconds);
  await renewStreamLeases(opts.db, tabs);
  await deleteLapsedLeases(opts.db);
}

/** Starts the periodic sweep; the answer stops it. */
export function sweepEvery(opts: SweeperOptions): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepOnce(opts)
      .catch(opts.onError)
      .finally(() => (running = false));
  }, opts.everyMs ?? SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
