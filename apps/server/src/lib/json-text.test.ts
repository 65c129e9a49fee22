import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayBytes, concatBytes } from './json-text.js';

describe('answers written as bytes', () => {
  it('arrayBytes writes the bytes of the joined array, whatever the texts (accents, emoji, empty)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 40 }), (elements) => {
        expect(arrayBytes(elements).equals(Buffer.from(`[${elements.join(',')}]`, 'utf8'))).toBe(true);
      }),
    );
  });

  it('arrayBytes of no element is [] and of JSON items parses back to them', () => {
    expect(arrayBytes([]).toString()).toBe('[]');
    const items = [{ moduleLabel: 'Lunettes été 😎', n: 1 }, { moduleLabel: 'Ø', n: 2 }];
    expect(JSON.parse(arrayBytes(items.map((i) => JSON.stringify(i))).toString('utf8'))).toEqual(items);
  });

  it('concatBytes writes the bytes of the texts one after the other', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 40 }), (pieces) => {
        expect(concatBytes(pieces).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
      }),
    );
  });
});
