/**
 * Answers kept while the database has not changed (docs/performance.md "Search answers kept per snapshot").
 *
 * A read answered for the database's snapshot S (`pg_current_snapshot()`: the oldest running
 * transaction, the next one, the ones in progress) is answered again from memory to any later caller
 * whose snapshot is S too. Any commit anywhere in the database (a save, a lock, a seed, plain SQL)
 * changes the snapshot, so the next caller reads afresh: there is no list of tables to keep right and
 * nothing a writer must remember to do. What the database's data does not say is the caller's part:
 * the key holds every input of the read (its SQL and parameters), and `validForMs` how long the answer
 * holds with time alone (a live lock that expires without any write).
 *
 * The snapshot is read before the answer is computed, so an answer is never older than its key: a caller
 * with that snapshot gets data at least as new as what it could have read itself. Callers of one
 * snapshot and key that come while the answer is being computed wait for that one computation.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';

export interface Kept {
  /** The answer's UTF-8 bytes. */
  bytes: Buffer;
  /** How long the answer holds with time alone (ms; Infinity: until the data changes). */
  validForMs: number;
}

interface Entry {
  answer: Buffer;
  /** What the entry takes in memory (its answer and key). */
  size: number;
  /** performance.now() past which the entry is not used. */
  until: number;
}

/** The database's current snapshot, as text (changes with every commit). */
export async function currentSnapshot(db: Db): Promise<string> {
  const [row] = await queryRows<{ snapshot: string }>(db, sql`SELECT pg_current_snapshot()::text AS snapshot`);
  return row!.snapshot;
}

export class SnapshotCache {
  /** Entries by snapshot, then key; the oldest snapshot first (a Map keeps insertion order). */
  private readonly bySnapshot = new Map<string, Map<string, Entry>>();
  private readonly pending = new Map<string, Promise<Kept>>();
  private bytes = 0;
  /** Answers given from memory (`kept`: kept, or computed for another caller) and computed for the caller. */
  readonly counts = { kept: 0, computed: 0 };

  /** `maxBytes` 0: nothing is kept (every call computes). */
  constructor(
    private readonly maxBytes: number,
    private readonly snapshotOf: () => Promise<string>,
  ) {}

  get size(): { entries: number; bytes: number; snapshots: number } {
    let entries = 0;
    for (const m of this.bySnapshot.values()) entries += m.size;
    return { entries, bytes: this.bytes, snapshots: this.bySnapshot.size };
  }

  /** The answer for `key` at the database's current snapshot: kept, being computed, or computed now. */
  async answer(key: string, compute: () => Promise<Kept>): Promise<Buffer> {
    if (this.maxBytes <= 0) {
      this.counts.computed++;
      return (await compute()).bytes;
    }
    const snapshot = await this.snapshotOf();
    const kept = this.bySnapshot.get(snapshot)?.get(key);
    if (kept && performance.now() < kept.until) {
      this.counts.kept++;
      return kept.answer;
    }
    const pendingKey = `${snapshot}\u0000${key}`;
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
      this.keep(snapshot, key, result, started);
      return result.bytes;
    } finally {
      this.pending.delete(pendingKey);
    }
  }

  private keep(snapshot: string, key: string, { bytes: answer, validForMs }: Kept, started: number): void {
    const size = answer.length + key.length * 2 + 200;
    if (!(validForMs > 0) || size > this.maxBytes) return;
    let entries = this.bySnapshot.get(snapshot);
    if (!entries) {
      // A new snapshot: the older ones are of no use to callers from now on but the few already past
      // their snapshot read; keep the last one beside it, drop the rest.
      while (this.bySnapshot.size > 1) this.dropSnapshot(this.bySnapshot.keys().next().value!);
      this.bySnapshot.set(snapshot, (entries = new Map()));
    }
    const old = entries.get(key);
    if (old) this.bytes -= old.size;
    // Measured from before the computation: the answer's facts (a lock's life) were read after it.
    entries.set(key, { answer, size, until: started + validForMs });
    this.bytes += size;
    while (this.bytes > this.maxBytes) this.dropOldest();
  }

  private dropSnapshot(snapshot: string): void {
    for (const e of this.bySnapshot.get(snapshot)?.values() ?? []) this.bytes -= e.size;
    this.bySnapshot.delete(snapshot);
  }

  private dropOldest(): void {
    const [snapshot, entries] = this.bySnapshot.entries().next().value!;
    const [key, entry] = entries.entries().next().value!;
    entries.delete(key);
    this.bytes -= entry.size;
    if (!entries.size) this.bySnapshot.delete(snapshot);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The home search's list answers (app.ts; modules/search/search.routes.ts). */
    searchAnswers: SnapshotCache;
  }
}
