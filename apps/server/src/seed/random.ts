/**
 * Seeded pseudo-random numbers for the demo data: the same seed always yields the same world.
 * Nothing here may read the clock or Math.random().
 */

/** 32-bit FNV-1a hash of a string: stable across platforms and Node versions. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes a base seed with any number of labels into an independent 32-bit seed. */
export function deriveSeed(seed: number, ...labels: (string | number)[]): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const label of labels) {
    h = Math.imul(h ^ hashString(String(label)), 0x85ebca6b) >>> 0;
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35) >>> 0;
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast and good enough for demo data. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** An independent generator for one entity, so that adding data elsewhere does not shift it. */
  static for(seed: number, ...labels: (string | number)[]): Rng {
    return new Rng(deriveSeed(seed, ...labels));
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    const last = items[items.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[0];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** Up to `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const k = Math.max(0, Math.min(count, items.length));
    if (k * 4 > items.length) return this.shuffle(items).slice(0, k);
    // Few out of many: draw indexes until k distinct ones came up, without copying the list.
    const seen = new Set<number>();
    const out: T[] = [];
    while (out.length < k) {
      const i = Math.floor(this.next() * items.length);
      if (seen.has(i)) continue;
      seen.add(i);
      out.push(items[i] as T);
    }
    return out;
  }

  /** Roughly normal (sum of uniforms), mean 0, standard deviation 1. */
  gaussian(): number {
    return this.next() + this.next() + this.next() + this.next() + this.next() + this.next() - 3;
  }
}
