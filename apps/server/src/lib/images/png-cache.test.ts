import { describe, expect, it } from 'vitest';
import { PngCache } from './png-cache.js';

const png = (n: number) => Buffer.alloc(n, 1);

describe('PngCache', () => {
  it('returns what was stored and drops the least recently used past its entry bound', () => {
    const cache = new PngCache(2, 1_000);
    cache.set('a', png(10));
    cache.set('b', png(10));
    expect(cache.get('a')?.length).toBe(10); // a is now the most recently used
    cache.set('c', png(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.size).toBe(2);
  });

  it('stays under its byte bound and refuses a picture larger than the whole cache', () => {
    const cache = new PngCache(100, 25);
    cache.set('a', png(10));
    cache.set('b', png(10));
    cache.set('c', png(10));
    expect(cache.totalBytes).toBe(20);
    expect(cache.get('a')).toBeUndefined();
    cache.set('huge', png(26));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.totalBytes).toBe(20);
  });

  it('replaces an entry stored twice without counting it twice', () => {
    const cache = new PngCache(10, 100);
    cache.set('a', png(10));
    cache.set('a', png(20));
    expect(cache.size).toBe(1);
    expect(cache.totalBytes).toBe(20);
  });
});
