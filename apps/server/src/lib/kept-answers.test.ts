import { describe, expect, it } from 'vitest';
import { KeptAnswers, type Kept, type KeptVersion, type Refresh } from './kept-answers.js';
import type { Scope, ScopeRead } from './kept-answers.repository.js';

const ALL: Scope = { months: null, brands: null };
const AUR_01: Scope = { months: ['M01_2027'], brands: ['AUR'] };
const MRA_01: Scope = { months: ['M01_2027'], brands: ['MRA'] };

/** A cache whose versions are `state.versions[scope's brand]` (set by the test). */
function cacheOf(maxBytes: number) {
  const state = { versions: new Map<string, string>(), computed: 0 };
  const cache = new KeptAnswers(maxBytes, async (scope) => ({ version: state.versions.get(scope.brands?.join(',') ?? '*') ?? 'v0' }));
  const compute = (text: string, validForMs = Infinity) => async (): Promise<Kept> => {
    state.computed++;
    return { bytes: Buffer.from(text), validForMs };
  };
  return { cache, state, compute };
}

describe('KeptAnswers', () => {
  it('answers a key again while its scope version is the same, and computes afresh once it changed', async () => {
    const { cache, state, compute } = cacheOf(1 << 20);
    expect(String(await cache.answer('k', AUR_01, compute('a')))).toBe('a');
    expect(String(await cache.answer('k', AUR_01, compute('b')))).toBe('a');
    expect(String(await cache.answer('other', MRA_01, compute('c')))).toBe('c');
    state.versions.set('AUR', 'v1');
    expect(String(await cache.answer('k', AUR_01, compute('d')))).toBe('d');
    // Another scope's change leaves its answer kept.
    expect(String(await cache.answer('other', MRA_01, compute('e')))).toBe('c');
    expect(state.computed).toBe(3);
    expect(cache.counts).toEqual({ kept: 2, refreshed: 0, computed: 3 });
    expect(cache.size.entries).toBe(2);
  });

  it('stays within its bytes, dropping the least recently used first', async () => {
    const { cache, compute } = cacheOf(10_000);
    const big = 'x'.repeat(3_000); // ~3.2 KB each as kept
    for (let i = 0; i < 10; i++) await cache.answer(`k${i}`, ALL, compute(big));
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.size.entries).toBe(3);
    const computed = cache.counts.computed;
    expect(String(await cache.answer('k7', ALL, compute('new')))).toBe(big); // used again: now the most recent
    await cache.answer('k10', ALL, compute(big)); // drops k8, the least recently used
    expect(String(await cache.answer('k7', ALL, compute('new')))).toBe(big);
    expect(cache.counts.computed).toBe(computed + 1);
    expect(String(await cache.answer('k8', ALL, compute('again')))).toBe('again');
    expect(String(await cache.answer('huge', ALL, compute('y'.repeat(10_000))))).toHaveLength(10_000);
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000);
  });

  it('holds an answer no longer than it said, and keeps none that holds no time at all', async () => {
    const { cache, compute } = cacheOf(1 << 20);
    await cache.answer('k', ALL, compute('a', 30));
    expect(String(await cache.answer('k', ALL, compute('b', 30)))).toBe('a');
    await new Promise((r) => setTimeout(r, 40));
    expect(String(await cache.answer('k', ALL, compute('c', 0)))).toBe('c');
    expect(cache.size.entries).toBe(0);
    expect(String(await cache.answer('k', ALL, compute('d')))).toBe('d');
  });

  it('shares one computation among the callers of one version and key, and keeps no failure', async () => {
    const { cache, state } = cacheOf(1 << 20);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = async (): Promise<Kept> => {
      state.computed++;
      await gate;
      return { bytes: Buffer.from('slow'), validForMs: Infinity };
    };
    const calls = Promise.all([cache.answer('k', ALL, slow), cache.answer('k', ALL, slow), cache.answer('k', ALL, slow)]);
    await new Promise((r) => setTimeout(r, 10));
    release();
    expect((await calls).map(String)).toEqual(['slow', 'slow', 'slow']);
    expect(state.computed).toBe(1);

    const failing = async (): Promise<Kept> => {
      throw new Error('no');
    };
    await expect(cache.answer('bad', ALL, failing)).rejects.toThrow('no');
    expect(String(await cache.answer('bad', ALL, async () => ({ bytes: Buffer.from('fine'), validForMs: Infinity })))).toBe('fine');
  });

  it('computes every time when given no bytes', async () => {
    const { cache, state, compute } = cacheOf(0);
    await cache.answer('k', ALL, compute('a'));
    expect(String(await cache.answer('k', ALL, compute('b')))).toBe('b');
    expect(state.computed).toBe(2);
  });

  describe('refreshed item by item', () => {
    /** A cache over a change log held by the test: `noted` are its rows (a snapshot is how many of them it saw); `folded` of them were compacted. */
    function refreshing() {
      const log = { noted: [] as { type: string | null; id: number | null }[], folded: 0 };
      const reads: (KeptVersion | undefined)[] = [];
      const cache = new KeptAnswers(1 << 20, async (_scope, since): Promise<ScopeRead> => {
        reads.push(since);
        const version = `${log.noted.length}:${log.noted.length}`;
        // As scopeVersion: the changes since the kept snapshot, read only when the version moved.
        const moved = since !== undefined && since.version !== version;
        return { version, snapshot: String(log.noted.length), ...(moved ? { changes: log.noted.slice(Math.max(Number(since.snapshot), log.folded)) } : {}) };
      });
      const given: (Refresh | undefined)[] = [];
      const compute = (text: string, validForMs = Infinity) => async (refresh?: Refresh): Promise<Kept> => {
        given.push(refresh);
        return { bytes: Buffer.from(text), validForMs, items: { state: text, bytes: text.length } };
      };
      return { cache, log, reads, given, compute };
    }

    it('hands the kept items and the items changed since to the computation when every change is an item', async () => {
      const { cache, log, reads, given, compute } = refreshing();
      expect(String(await cache.answer('k', AUR_01, compute('a')))).toBe('a');
      expect(given).toEqual([undefined]);
      log.noted.push({ type: 'module', id: 7 }, { type: 'cluster', id: 3 });
      expect(String(await cache.answer('k', AUR_01, compute('b')))).toBe('b');
      expect(given[1]).toEqual({ state: 'a', changed: [{ type: 'module', id: 7 }, { type: 'cluster', id: 3 }] });
      // The version read of a kept entry asks for the changes since its version and snapshot.
      expect(reads).toEqual([undefined, { version: '0:0', snapshot: '0' }]);
      expect(String(await cache.answer('k', AUR_01, compute('c')))).toBe('b');
      expect(cache.counts).toEqual({ kept: 1, refreshed: 1, computed: 1 });
    });

    it('computes whole after a change of a scope as a whole, or when some changes were folded away', async () => {
      const { cache, log, given, compute } = refreshing();
      await cache.answer('k', AUR_01, compute('a'));
      log.noted.push({ type: 'module', id: 7 }, { type: null, id: null });
      expect(String(await cache.answer('k', AUR_01, compute('b')))).toBe('b');
      expect(given[1]).toBeUndefined();
      log.noted.push({ type: 'module', id: 8 }, { type: 'module', id: 9 });
      log.folded = log.noted.length - 1; // the change to 8 was folded into the totals: only 9 is found
      expect(String(await cache.answer('k', AUR_01, compute('c')))).toBe('c');
      expect(given[2]).toBeUndefined();
      expect(cache.counts).toEqual({ kept: 0, refreshed: 0, computed: 3 });
    });

    it('refreshes an answer whose time ran out with no change (a lock that lapsed) from its items', async () => {
      const { cache, given, compute } = refreshing();
      await cache.answer('k', AUR_01, compute('a', 20));
      await new Promise((r) => setTimeout(r, 30));
      expect(String(await cache.answer('k', AUR_01, compute('b')))).toBe('b');
      expect(given[1]).toEqual({ state: 'a', changed: [] });
    });

    it('counts the kept items in its bytes', async () => {
      const { cache, compute } = refreshing();
      await cache.answer('k', AUR_01, compute('x'.repeat(1000)));
      expect(cache.size.bytes).toBeGreaterThanOrEqual(2000);
    });
  });
});
