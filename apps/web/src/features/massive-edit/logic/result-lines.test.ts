import type { MassiveEditResult } from '@bo/shared/massive-edit';
import { describe, expect, it } from 'vitest';
import { fieldErrorsByRow, renumberRow, resultLines } from './result-lines';

describe('resultLines', () => {
  it('gives one line per row coloured by outcome, then the Edit error and Submit error lines', () => {
    const result: MassiveEditResult = {
      type: 'module',
      dryRun: false,
      toPublish: true,
      status: 'PARTIAL',
      notAuthorizedItems: { edit: ['M1'], submit: ['M2', 'M3'] },
      counts: { applied: 1, unchanged: 0, failed: 1 },
      rows: [
        { row: 1, outcome: 'applied', message: 'Row 1: done', error: null, items: [] },
        { row: 2, outcome: 'failed', message: 'Row 2: no such module', error: 'no such module', items: [] },
      ],
      publishJobId: null,
    };
    expect(resultLines(result, [2, 5])).toEqual([
      { text: 'Row 2: done', color: 'teal' },
      { text: 'Row 5: no such module', color: 'red' },
      { text: 'Edit error: cannot edit module(s) M1', color: 'red' },
      { text: 'Submit error: cannot submit module(s) M2, M3', color: 'red' },
    ]);
  });
});

describe('fieldErrorsByRow', () => {
  it('maps the sent row index of a 400 field to the table row', () => {
    const byRow = fieldErrorsByRow(
      [
        { path: 'body.massiveEditList.1', message: 'Insert at least one module' },
        { path: 'body.massiveEditList.1.upcToAddList.0', message: 'Empty value' },
        { path: 'body.toPublish', message: 'x' },
      ],
      ['a', 'b'],
    );
    expect([...byRow]).toEqual([['b', ['Insert at least one module', 'Empty value']]]);
  });
});

describe('renumberRow', () => {
  it('names a row by its table number (blank rows between were not sent)', () => {
    expect(renumberRow('Row 2: Module AU_01 added', [1, 4])).toBe('Row 4: Module AU_01 added');
    expect(renumberRow('Row 3: x', [1, 4])).toBe('Row 3: x');
    expect(renumberRow('Edit error: Row 1', [9])).toBe('Edit error: Row 1');
  });
});
