/**
 * Answers kept while what they cover has not changed (docs/performance.md "Kept answers that survive writes";
 * migration 0015).
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
 */
import type { Db } from '../db/client.js';
import { compactSearchChanges, type Scope } from './kept-answers.repository.js';

export interface Kept {
  /** The answer's UTF-8 bytes. */
  bytes: Buffer;
  /** How long the answer holds with time alone (ms; Infinity: until the data changes). */
  validForMs: number;
}

interface Entry {
  version: string;
  answer: Buffer;
  /** What the entry takes in memory (its answer and key). */
  size: number;
  /** performance.now() past which the entry is not used. */
  until: number;
}

/**
 * Compacts the change log every `everyMs` (each server process does; concurrent compactions are safe), so that reading a
 * version stays a look at a few hundred rows. Answers the function that stops it.
 */
export function compactSearchChangesEvery(db: Db, everyMs: number, onError: (error: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    compactSearchChanges(db)
      .catch(onError)
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export class KeptAnswers {
  /** Entries by key, the least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Kept>>();
  private bytes = 0;
  /** Answers given from memory (`kept`: kept, or computed for another caller) and computed for the caller. */
  readonly counts = { kept: 0, computed: 0 };

  /** `maxBytes` 0: nothing is kept (every call computes). */
  constructor(
    private readonly maxBytes: number,
    private readonly versionOf: (scope: Scope) => Promise<string>,
  ) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The answer for `key`, which reads within `scope`, at the current version of that scope: kept, being computed, or computed now. */
  async answer(key: string, scope: Scope, compute: () => Promise<Kept>): Promise<Buffer> {
    if (this.maxBytes <= 0) {
      this.counts.computed++;
      return (await compute()).bytes;
    }
    const version = await this.versionOf(scope);
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
    this.counts.computed++;
    const started = performance.now();
    const computing = compute();
    this.pending.set(pendingKey, computing);
    try {
      const result = await computing;
      this.keep(key, version, result, started);
      return result.bytes;
    } finally {
      this.pending.delete(pendingKey);
    }
  }

  private keep(key: string, version: string, { bytes: answer, validForMs }: Kept, started: number): void {
    const size = answer.length + key.length * 2 + 200;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    if (!(validForMs > 0) || size > this.maxBytes) return;
    // Measured from before the computation: the answer's facts (a lock's life) were read after it.
    this.entries.set(key, { version, answer, size, until: started + validForMs });
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.size;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The home search's list answers (app.ts; areas/search/search.routes.ts). */
    searchAnswers: KeptAnswers;
  }
}
