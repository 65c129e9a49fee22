/**
 * The CSV formula escape (csv-formula.ts): reversible for every string, never a trigger first, and the same
 * values through the whole way a release file goes (csvField → csv-parse → parseCell).
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS, parseCell } from '../areas/uploads/release-loader/formats.js';
import { csvField } from '../areas/uploads/release-loader/release-export.js';
import { escapeFormula, unescapeFormula } from './csv-formula.js';

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];
/** Strings rich in quotes and triggers, and any string. */
const field = fc.oneof(
  fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', '1', ' ', ',', '"', '.'), maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string(),
);

describe('escapeFormula / unescapeFormula', () => {
  it('unescape(escape(s)) is s, and escape(s) never begins with a trigger', () => {
    fc.assert(
      fc.property(field, (s) => {
        const escaped = escapeFormula(s);
        expect(unescapeFormula(escaped)).toBe(s);
        expect(TRIGGERS).not.toContain(escaped.charAt(0));
      }),
      { numRuns: 5000 },
    );
  });

  it('escapes what a spreadsheet would run, numbers included, and nothing else', () => {
    expect(escapeFormula('=HYPERLINK("http://x","y")')).toBe(`'=HYPERLINK("http://x","y")`);
    expect(escapeFormula('-1.5')).toBe("'-1.5");
    expect(escapeFormula("'=1")).toBe("''=1");
    expect(escapeFormula('\tx')).toBe("'\tx");
    expect(escapeFormula("it's")).toBe("it's");
    expect(escapeFormula("'quoted")).toBe("'quoted");
    expect(escapeFormula('a=b')).toBe('a=b');
    expect(unescapeFormula("'quoted")).toBe("'quoted");
    expect(unescapeFormula('-1.5')).toBe('-1.5');
  });

  it('a text cell written by csvField reads back the same through csv-parse and parseCell', () => {
    const spec = FORMATS.module.columns.find((c) => c.name === 'moduleDescription')!;
    fc.assert(
      fc.property(field, (s) => {
        // parseCell trims and refuses NUL: the values a text column can hold.
        const value = s.replaceAll('\0', '').trim();
        const line = `${csvField(value)},x`;
        const [cells] = parse(line, { relax_column_count: true }) as string[][];
        const parsed = parseCell(spec, cells![0]!);
        if (value.length > 100 || /[\uD800-\uDFFF]/.test(value)) return;
        expect(parsed).toEqual({ ok: true, value: value === '' ? '' : value });
      }),
      { numRuns: 2000 },
    );
  });
});
