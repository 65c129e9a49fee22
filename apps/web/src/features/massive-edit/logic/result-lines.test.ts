import type { MassiveEditResult } from '@bo/shared/massive-edit';
import { describe, expect, it } from 'vitest';
import { countBadges, fieldErrorsByRow, renumberRow, resultLines } from './result-lines';

describe('resultLines', () => {
  it('gives one line per row coloured by outcome, then the Edit error and Submit error lines', () => {
    const result: MassiveEditResult = {
      type: 'module',
      dryRun: false,
      toPublish: true,
      status: 'PARTIAL',
      notAuthorizedItems: { edit: ['M1'], submit: ['M2', 'M3'] },
      counts: { saved: 1, partial: 0, unchanged: 0, failed: 1, published: 1, notPublished: 0, notPublishedReasons: [] },
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

describe('countBadges and the lines of a Save & Publish that published nothing (issue 34 item 2)', () => {
  const notPublished = (outcome: 'applied') => ({
    itemKey: 'CL_1',
    label: 'CL_1',
    monthId: 'M01_2027',
    outcome,
    changes: ['Description: "" → "x"'],
    reason: null,
    published: false,
    publishError: 'modules in WIP',
  });
  const result: MassiveEditResult = {
    type: 'cluster',
    dryRun: false,
    toPublish: true,
    status: 'DONE',
    notAuthorizedItems: { edit: [], submit: [] },
    counts: { saved: 2, partial: 0, unchanged: 0, failed: 0, published: 0, notPublished: 2, notPublishedReasons: [{ reason: 'modules in WIP', rows: 2 }] },
    rows: [
      { row: 1, outcome: 'applied', message: 'Row 1: saved CL_1 (01/2027)', error: null, items: [notPublished('applied')] },
      { row: 2, outcome: 'applied', message: 'Row 2: saved CL_1 (01/2027)', error: null, items: [notPublished('applied')] },
    ],
    publishJobId: null,
  };

  it('shows nothing green: saved orange, published 0 grey, not published orange', () => {
    expect(countBadges(result)).toEqual([
      { key: 'saved', text: '2 rows saved', color: 'orange' },
      { key: 'unchanged', text: '0 rows unchanged', color: 'gray' },
      { key: 'published', text: '0 rows published', color: 'gray' },
      { key: 'notPublished', text: '2 rows not published', color: 'orange' },
      { key: 'failed', text: '0 rows failed', color: 'gray' },
    ]);
    expect(resultLines(result).map((l) => l.color)).toEqual(['orange', 'orange']);
  });

  it('a Save without publishing: saved rows are green and no publish badge', () => {
    const saved = { ...result, toPublish: false, counts: { ...result.counts, notPublished: 0, notPublishedReasons: [] } };
    expect(countBadges(saved).map((b) => [b.key, b.color])).toEqual([
      ['saved', 'teal'],
      ['unchanged', 'gray'],
      ['failed', 'gray'],
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
