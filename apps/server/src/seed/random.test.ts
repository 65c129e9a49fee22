import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveSeed, Rng } from './random.js';

describe('seeded random numbers', () => {
  it('repeats the same sequence for the same seed and labels', () => {
    const a = Rng.for(7, 'skus', 'AUR');
    const b = Rng.for(7, 'skus', 'AUR');
    const c = Rng.for(7, 'skus', 'VLT');
    const seqA = Array.from({ length: 20 }, () => a.float());
    expect(Array.from({ length: 20 }, () => b.float())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.float())).not.toEqual(seqA);
    expect(deriveSeed(1, 'x')).not.toBe(deriveSeed(2, 'x'));
  });

  it('keeps int() within its bounds and sample() distinct', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 50 }), (seed, min, span) => {
        const rng = new Rng(seed);
        for (let i = 0; i < 20; i++) {
          const v = rng.int(min, min + span);
          if (v < min || v > min + span || !Number.isInteger(v)) return false;
        }
        const picked = rng.sample([1, 2, 3, 4, 5, 6], 4);
        return picked.length === 4 && new Set(picked).size === 4;
      }),
    );
  });
});
