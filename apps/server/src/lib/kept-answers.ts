/**
 * Answers kept while what they cover has not changed (docs/performance.md "Kept answers that survive writes",
 * "Kept answers refreshed item by item"; migrations 0015, 0017).
 *
 * Every statement that changes a table a result list reads notes, through triggers, the scopes it changed in
 * `search_changes`: (month, brand) for an item, (month, '*') for a month's own row, ('*', '*') for reference data,
 * releases, grants, users or a TRUNCATE. An answer covers some months and brands (`Scope`, null: all of them); its
 * version is the number and the highest id of the changes of those scopes and of the wider ones ('*'), read in one
 * short statement before the answer is computed. A later caller whose version is the same is answered from memory:
 * a save of an AUR module of 01/2027 leaves the answers for MRA, or for 02/2027, as they are. The triggers see every
 * writer (a save, a job, an import, plain SQL), so there is still no list of writers to keep right and nothing a
 * writer must remember to do; what the data does not say is the caller's part: the key holds every input of the
 * read (its SQL and parameters), the scope what it reads, and `validForMs` how long the answer holds with time alone
 * (a live lock that expires without any write).
 *
 * The version is read before the answer is computed, so an answer is never older than its key: a caller with that
 * version gets data at least as new as what it could have read itself. Callers of one version and key that come while
 * the answer is being computed wait for that one computation. The versions are in the database, so this holds across
 * server processes (WORKERS) and machines sharing it, and on the embedded database.
 *
 * Refreshed item by item (migration 0017): the log also names the item (a module's or a cluster's row id) of a change
 * that concerns one item alone, and each entry keeps, beside its bytes, the snapshot of its version's read and its
 * items (`Kept.items`). When the version moved, the same statement that reads it lists the log's changes that snapshot
 * did not see; if they are all items' and as many as the count moved (none folded away meanwhile), the caller reads
 * only those items again and merges them into the kept ones (`Refresh`): one save of a module of 2,000 no longer
 * costs the whole list. Anything else — a scope changed as a whole, a change folded away — computes the answer whole.
 */
import type { Db } from '../db/client.js';
import { compactSearchChanges, type Scope, type ScopeRead } from './kept-answers.repository.js';

export interface Kept {
  /** The answer's UTF-8 bytes. */
  bytes: Buffer;
  /** How long the answer holds with time alone (ms; Infinity: until the data changes). */
  validForMs: number;
  /** What a later refresh of the answer starts from (a list's items), and about how many bytes it holds. */
  items?: { state: unknown; bytes: number };
}

/** What a refresh of a kept answer is given: its items as kept, and the items changed since (type and row id). */
/** A kept answer's version and the snapshot it was read in: the changes since are read only when the version moved. */
export interface KeptVersion {
  version: string;
  snapshot: string;
}

export interface Refresh {
  state: unknown;
  changed: { type: string; id: number }[];
}

interface Entry {
  version: string;
  /** The snapshot of the read of `version` (undefined: unknown, no refresh). */
  snapshot: string | undefined;
  answer: Buffer;
  items: Kept['items'];
  /** What the entry takes in memory (its answer, its items and key). */
  size: number;
  /** performance.now() past which the entry is not used as it is. */
  until: number;
}

/** How long the change log keeps its rows before they are folded into the totals: the refreshes' window. */
export const CHANGES_KEPT_SECONDS = 120;

/**
 * Compacts the change log every `everyMs` (each server process does; concurrent compactions are safe), so that reading a
 * version stays a look at a few hundred rows. The rows of the last CHANGES_KEPT_SECONDS stay, for the refreshes. Answers
 * the function that stops it.
 */
export function compactSearchChangesEvery(db: Db, everyMs: number, onError: (error: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    compactSearchChanges(db, CHANGES_KEPT_SECONDS)
      .catch(onError)
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

const countOf = (version: string) => Number(version.slice(0, version.indexOf(':')));

export class KeptAnswers {
  /** Entries by key, the least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Kept>>();
  private bytes = 0;
  /**
   * Answers given from memory (`kept`: kept, or computed for another caller), brought up to date from a kept answer by
   * reading only the items changed since (`refreshed`), and computed whole for the caller (`computed`).
   */
  readonly counts = { kept: 0, refreshed: 0, computed: 0 };

  /** `maxBytes` 0: nothing is kept (every call computes). */
  constructor(
    private readonly maxBytes: number,
    private readonly versionOf: (scope: Scope, since?: KeptVersion) => Promise<ScopeRead>,
  ) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The answer for `key`, which reads within `scope`, at the current version of that scope: kept, being computed, or
   * computed now — by `compute()`, or by `compute(refresh)` from the kept answer's items when every change since it was
   * read is an item's (refreshed).
   */
  async answer(key: string, scope: Scope, compute: (refresh?: Refresh) => Promise<Kept>): Promise<Buffer> {
    if (this.maxBytes <= 0) {
      this.counts.computed++;
      return (await compute()).bytes;
    }
    const before = this.entries.get(key);
    const since = before?.items && before.snapshot !== undefined ? { version: before.version, snapshot: before.snapshot } : undefined;
    const read = await this.versionOf(scope, since);
    const version = read.version;
    // Read again: another caller may have kept a newer answer while this one read the version.
    const kept = this.entries.get(key);
    if (kept && kept.version === version && performance.now() < kept.until) {
      this.counts.kept++;
      // The most recently used last.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.answer;
    }
    const pendingKey = `${version}\u0000${key}`;
    const running = this.pending.get(pendingKey);
    if (running) {
      const { bytes } = await running;
      this.counts.kept++;
      return bytes;
    }
    const refresh = kept && kept === before && kept.items && since !== undefined ? refreshOf(kept, read) : undefined;
    this.counts[refresh ? 'refreshed' : 'computed']++;
    const started = performance.now();
    const computing = compute(refresh);
    this.pending.set(pendingKey, computing);
    try {
      const result = await computing;
      this.keep(key, read, result, started);
      return result.bytes;
    } finally {
      this.pending.delete(pendingKey);
    }
  }

  private keep(key: string, read: ScopeRead, { bytes: answer, validForMs, items }: Kept, started: number): void {
    const size = answer.length + (items?.bytes ?? 0) + key.length * 2 + 200;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    if (!(validForMs > 0) || size > this.maxBytes) return;
    // Measured from before the computation: the answer's facts (a lock's life) were read after it.
    this.entries.set(key, { version: read.version, snapshot: read.snapshot, answer, items, size, until: started + validForMs });
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.size;
    }
  }
}

/**
 * The refresh of `kept` to the version `read`, or undefined when it must be computed whole: a change of the scope as a
 * whole, or fewer changes found than the count says (some were folded into the totals before this read).
 */
function refreshOf(kept: Entry, read: ScopeRead): Refresh | undefined {
  // The same version: only time passed (a lock lapsed); the caller reads those items again.
  if (read.version === kept.version) return { state: kept.items!.state, changed: [] };
  const changes = read.changes;
  if (!changes || changes.length !== countOf(read.version) - countOf(kept.version)) return undefined;
  const changed: Refresh['changed'] = [];
  for (const c of changes) {
    if (c.type === null || c.id === null) return undefined;
    changed.push({ type: c.type, id: c.id });
  }
  return { state: kept.items!.state, changed };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The home search's list answers (app.ts; areas/search/search.routes.ts). */
    searchAnswers: KeptAnswers;
  }
}
