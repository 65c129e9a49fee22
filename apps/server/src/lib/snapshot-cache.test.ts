import { describe, expect, it } from 'vitest';
import { SnapshotCache, type Kept } from './snapshot-cache.js';

/** A cache whose database snapshot is `state.snapshot` (set by the test). */
function cacheOf(maxBytes: number) {
  const state = { snapshot: 's1', computed: 0 };
  const cache = new SnapshotCache(maxBytes, async () => state.snapshot);
  const compute = (text: string, validForMs = Infinity) => async (): Promise<Kept> => {
    state.computed++;
    return { bytes: Buffer.from(text), validForMs };
  };
  return { cache, state, compute };
}

describe('SnapshotCache', () => {
  it('answers a key again while the snapshot is the same, and computes afresh once it changed', async () => {
    const { cache, state, compute } = cacheOf(1 << 20);
    expect(String(await cache.answer('k', compute('a')))).toBe('a');
    expect(String(await cache.answer('k', compute('b')))).toBe('a');
    expect(String(await cache.answer('other', compute('c')))).toBe('c');
    state.snapshot = 's2';
    expect(String(await cache.answer('k', compute('d')))).toBe('d');
    expect(state.computed).toBe(3);
    expect(cache.counts).toEqual({ kept: 1, computed: 3 });
  });

  it('keeps the last two snapshots only', async () => {
    const { cache, state, compute } = cacheOf(1 << 20);
    for (const s of ['s1', 's2', 's3', 's4']) {
      state.snapshot = s;
      await cache.answer('k', compute(s));
    }
    expect(cache.size).toMatchObject({ entries: 2, snapshots: 2 });
  });

  it('stays within its bytes, dropping the oldest first', async () => {
    const { cache, compute } = cacheOf(10_000);
    const big = 'x'.repeat(3_000); // ~3.2 KB each as kept
    for (let i = 0; i < 10; i++) await cache.answer(`k${i}`, compute(big));
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.size.entries).toBe(3);
    const computed = cache.counts.computed;
    expect(String(await cache.answer('k9', compute('new')))).toBe(big); // the newest is kept
    expect(cache.counts.computed).toBe(computed);
    expect(String(await cache.answer('k0', compute('again')))).toBe('again'); // the oldest is gone
    expect(String(await cache.answer('huge', compute('y'.repeat(10_000))))).toHaveLength(10_000);
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000);
  });

  it('holds an answer no longer than it said, and keeps none that holds no time at all', async () => {
    const { cache, compute } = cacheOf(1 << 20);
    await cache.answer('k', compute('a', 30));
    expect(String(await cache.answer('k', compute('b', 30)))).toBe('a');
    await new Promise((r) => setTimeout(r, 40));
    expect(String(await cache.answer('k', compute('c', 0)))).toBe('c');
    expect(String(await cache.answer('k', compute('d')))).toBe('d');
  });

  it('shares one computation among the callers of one snapshot and key, and keeps no failure', async () => {
    const { cache, state } = cacheOf(1 << 20);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = async (): Promise<Kept> => {
      state.computed++;
      await gate;
      return { bytes: Buffer.from('slow'), validForMs: Infinity };
    };
    const calls = Promise.all([cache.answer('k', slow), cache.answer('k', slow), cache.answer('k', slow)]);
    await new Promise((r) => setTimeout(r, 10));
    release();
    expect((await calls).map(String)).toEqual(['slow', 'slow', 'slow']);
    expect(state.computed).toBe(1);

    const failing = async (): Promise<Kept> => {
      throw new Error('no');
    };
    await expect(cache.answer('bad', failing)).rejects.toThrow('no');
    expect(String(await cache.answer('bad', async () => ({ bytes: Buffer.from('fine'), validForMs: Infinity })))).toBe('fine');
  });

  it('computes every time when given no bytes', async () => {
    const { cache, state, compute } = cacheOf(0);
    await cache.answer('k', compute('a'));
    expect(String(await cache.answer('k', compute('b')))).toBe('b');
    expect(state.computed).toBe(2);
  });
});
