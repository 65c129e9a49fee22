import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brandUpc, isValidUpc, makeUpc, upcCheckDigit } from './upc.js';

const payload = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 11 }).map((d) => d.join(''));

describe('UPC-A check digit', () => {
  it('matches published codes', () => {
    expect(upcCheckDigit('03600029145')).toBe(2);
    expect(isValidUpc('036000291452')).toBe(true);
    expect(isValidUpc('042100005264')).toBe(true);
    expect(isValidUpc('036000291453')).toBe(false);
  });

  it('makes every payload a valid code whose digit sum (weights 3,1,…) is a multiple of 10', () => {
    fc.assert(
      fc.property(payload, (p) => {
        const code = makeUpc(p);
        const sum = [...code].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
        return code.startsWith(p) && code.length === 12 && isValidUpc(code) && sum % 10 === 0;
      }),
    );
  });

  it('catches every single-digit error', () => {
    fc.assert(
      fc.property(payload, fc.integer({ min: 0, max: 11 }), fc.integer({ min: 1, max: 9 }), (p, at, shift) => {
        const code = makeUpc(p);
        const wrong = code.slice(0, at) + String((Number(code[at]) + shift) % 10) + code.slice(at + 1);
        return !isValidUpc(wrong);
      }),
    );
  });

  it('rejects what is not twelve digits', () => {
    for (const bad of ['', '03600029145', '0360002914520', '03600029145a', ' 36000291452']) expect(isValidUpc(bad)).toBe(false);
    expect(() => upcCheckDigit('123')).toThrow();
  });

  it('gives each brand distinct, valid codes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.uniqueArray(fc.integer({ min: 0, max: 999_999_999 }), { minLength: 2, maxLength: 50 }), (brand, seqs) => {
        const codes = seqs.map((n) => brandUpc(brand, n));
        return new Set(codes).size === codes.length && codes.every((c) => isValidUpc(c) && c.startsWith(`8${brand}`));
      }),
    );
  });
});
