/**
 * The release files' bytes as text (utf8-text.ts): valid UTF-8 decodes as Node decodes it, each byte that is
 * not UTF-8 becomes a lone surrogate (which parseCell refuses), however the bytes are cut into chunks, and the
 * careful way's marking survives csv-parse's own decoding.
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CELL_TEXT_REASONS, cellTextProblem } from './formats.js';
import { decodeUtf8, markInvalidUtf8, unmarkInvalidUtf8, Utf8Decoder } from './utf8-text.js';

/** Bytes that are often not UTF-8: pieces of valid characters, stray continuation and lead bytes, U+FDD0. */
const bytes = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }).map((s) => [...Buffer.from(s, 'utf8')]),
      fc.constantFrom([0x80], [0xbf], [0xc0], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f], [0xff], [0xef, 0xb7, 0x90], [0x2c], [0x22]),
    ),
    { maxLength: 30 },
  )
  .map((parts) => Buffer.from(parts.flat()));

/** The bytes cut at the given places. */
const chunksOf = (all: Buffer, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => all.subarray(from, at[i] ?? all.length));
};

describe('decodeUtf8 and Utf8Decoder (the fast way)', () => {
  it('decodes valid UTF-8 as Node does', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      expect(decodeUtf8(Buffer.from(text, 'utf8'))).toBe(Buffer.from(text, 'utf8').toString('utf8'));
    }));
  });

  it('gives each byte that is not UTF-8 as a lone surrogate, whatever the chunks', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 5 }), (all, cuts) => {
        const whole = decodeUtf8(all);
        const decoder = new Utf8Decoder();
        expect(chunksOf(all, cuts).map((c) => decoder.write(c)).join('') + decoder.end()).toBe(whole);
        // Valid bytes and only they decode without a lone surrogate.
        expect(cellTextProblem(whole.replaceAll('\0', '')) === null).toBe(Buffer.from(all).toString('utf8') === whole);
      }),
      { numRuns: 2000 },
    );
    expect(decodeUtf8(Buffer.from([0x61, 0xff, 0x62, 0xc3, 0xa9, 0xc3]))).toBe('a\uDCFFbé\uDCC3');
    expect(cellTextProblem('a\uDCFFb')).toBe(CELL_TEXT_REASONS.notUtf8);
    expect(cellTextProblem('a\u0000b')).toBe(CELL_TEXT_REASONS.nul);
    expect(cellTextProblem('emoji 😀 é')).toBeNull();
  });
});

describe('markInvalidUtf8 and unmarkInvalidUtf8 (the careful way, through csv-parse)', () => {
  it('gives the cells decodeUtf8 would, after csv-parse decoded the marked bytes', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 5 }), (all, cuts) => {
        const marker = markInvalidUtf8();
        const marked = Buffer.concat([...chunksOf(all, cuts).map((c) => marker.write(c)), marker.end()]);
        // What csv-parse does with a field: Node's decoding of its bytes.
        expect(unmarkInvalidUtf8(marked.toString('utf8'))).toBe(decodeUtf8(all));
        expect(marker.marked).toBe(!(Buffer.from(all).toString('utf8') === decodeUtf8(all) && !decodeUtf8(all).includes('\uFDD0')));
      }),
      { numRuns: 2000 },
    );
    const marker = markInvalidUtf8();
    const file = Buffer.concat([Buffer.from('a,b\n"x\uFDD0y",'), Buffer.from([0xff]), Buffer.from('z\n')]);
    const rows = parse(Buffer.concat([marker.write(file), marker.end()])) as string[][];
    expect(rows.map((r) => r.map(unmarkInvalidUtf8))).toEqual([['a', 'b'], ['x\uFDD0y', '\uDCFFz']]);
  });
});

describe('markInvalidUtf8: what it saw (the Windows-1252 guess, docs/SPREADSHEET-FILES.md)', () => {
  const seen = (chunks: Buffer[]) => {
    const marker = markInvalidUtf8();
    for (const chunk of chunks) marker.write(chunk);
    marker.end();
    return { invalid: marker.invalid, multibyte: marker.multibyte };
  };

  it('tells a file of invalid bytes alone from a UTF-8 file with a stray byte, however the bytes are cut', () => {
    expect(seen([Buffer.from('abc,def\n')])).toEqual({ invalid: false, multibyte: false });
    expect(seen([Buffer.from('caf\xe9\n', 'latin1')])).toEqual({ invalid: true, multibyte: false });
    expect(seen([Buffer.from('café\n')])).toEqual({ invalid: false, multibyte: true });
    const utf8 = Buffer.from('été');
    expect(seen([utf8.subarray(0, 1), utf8.subarray(1), Buffer.from([0xe9])])).toEqual({ invalid: true, multibyte: true });
  });

  it('property: multibyte is whether the bytes hold a valid sequence of 2–4 bytes; invalid is whether they are not UTF-8', () => {
    fc.assert(
      fc.property(bytes, fc.integer({ min: 1, max: 7 }), (all, size) => {
        const chunks: Buffer[] = [];
        for (let i = 0; i < all.length; i += size) chunks.push(all.subarray(i, i + size));
        const text = decodeUtf8(all);
        // decodeUtf8 gives each invalid byte as a lone U+DC80–U+DCFF, each valid sequence as its character.
        const lone = (c: string) => c.length === 1 && c.charCodeAt(0) >= 0xdc80 && c.charCodeAt(0) <= 0xdcff;
        const expected = { invalid: [...text].some(lone), multibyte: [...text].some((c) => c.codePointAt(0)! >= 0x80 && !lone(c)) };
        expect(seen(chunks)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
