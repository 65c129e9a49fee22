/**
 * The fast way's line splitter (fast-stage.ts `splitLine`) against the CSV the product writes (csvField)
 * and csv-parse, which the careful way reads with: the same cells, or null (the careful way decides). The
 * formula escape csvField adds (`'=…`) is taken off by parseCell, on both ways: here by unescapeFormula.
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unescapeFormula } from '../../../lib/csv-formula.js';
import { splitLine } from './stage-typer.js';
import { csvField } from './release-export.js';

const cell = fc.string({ unit: fc.constantFrom('a', 'B', '1', ' ', ',', ';', '"', 'é', '\t', '|', "'", '=', '-'), maxLength: 8 });

describe('splitLine', () => {
  it('reads back the cells of any line csvField wrote (without line breaks), as csv-parse does', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 12 }), fc.constantFrom(',' as const, ';' as const), (cells, delimiter) => {
        const line = cells.map((c) => csvField(c, delimiter)).join(delimiter);
        expect(splitLine(line, delimiter)?.map(unescapeFormula)).toEqual(cells);
        expect(((parse(line, { delimiter, relax_column_count: true }) as string[][])[0] ?? ['']).map(unescapeFormula)).toEqual(cells);
      }),
      { numRuns: 500 },
    );
  });

  it('answers null for what only the careful way can read', () => {
    expect(splitLine('a,"b', ',')).toBeNull(); // a quoted cell running past the line (a quoted line break)
    expect(splitLine('a,b"c,d', ',')).toBeNull(); // a quote inside an unquoted cell
    expect(splitLine('a,"b"c,d', ',')).toBeNull(); // text after a closing quote
    expect(splitLine('"a""b",,"",x', ',')).toEqual(['a"b', '', '', 'x']);
  });
});
