import { describe, expect, it } from 'vitest';
import { emptyRow } from './draft-rows';
import { initialRows, rowsReducer } from './rows-reducer';
import { parseStoredRows, serialiseRows } from './stored-rows';

describe('rowsReducer', () => {
  it('adds a new row on top', () => {
    let s = initialRows('module');
    s = rowsReducer(s, { type: 'set', id: s.rows[0]!.id, key: 'moduleLabels', value: 'AU_01' });
    s = rowsReducer(s, { type: 'add' });
    expect(s.rows).toHaveLength(2);
    expect(s.rows[0]!.values.moduleLabels).toBe('');
    expect(s.rows[1]!.values.moduleLabels).toBe('AU_01');
    expect(new Set(s.rows.map((r) => r.id)).size).toBe(2);
  });

  it('removes a row; removing the last remaining row leaves one empty row', () => {
    let s = initialRows('cluster');
    const first = s.rows[0]!.id;
    s = rowsReducer(s, { type: 'set', id: first, key: 'clusterLabels', value: 'C1' });
    s = rowsReducer(s, { type: 'add' });
    s = rowsReducer(s, { type: 'remove', id: s.rows[0]!.id });
    expect(s.rows.map((r) => r.id)).toEqual([first]);
    s = rowsReducer(s, { type: 'remove', id: first });
    expect(s.rows).toHaveLength(1);
    expect(s.rows[0]!.values).toEqual(emptyRow('cluster', 'z').values);
  });

  it('pastes from the row and column it starts at and adds rows below', () => {
    let s = initialRows('classification');
    s = rowsReducer(s, { type: 'paste', id: s.rows[0]!.id, key: 'classificationsToAdd', table: [['GOLD'], ['SILVER']] });
    expect(s.rows.map((r) => r.values.classificationsToAdd)).toEqual(['GOLD', 'SILVER']);
    expect(s.lastPaste).toMatchObject({ added: 1, droppedRows: 0 });
    expect(new Set(s.rows.map((r) => r.id)).size).toBe(2);
  });

  it('starts a switched type with one empty row of that type', () => {
    const s = rowsReducer(initialRows('module'), { type: 'reset', to: 'classification' });
    expect(s.type).toBe('classification');
    expect(Object.keys(s.rows[0]!.values)).toEqual(['clusterLabels', 'classificationsToAdd', 'classificationsToRemove']);
  });

  it('keeps stored row ids and names new rows past them', () => {
    const stored = parseStoredRows(serialiseRows('module', [{ ...emptyRow('module', 'r7'), values: { moduleLabels: 'AU' } }]));
    expect(stored).toEqual({ type: 'module', rows: [{ id: 'r7', values: { moduleLabels: 'AU' } }] });
    const s = rowsReducer(initialRows(stored!.type, stored!.rows), { type: 'add' });
    expect(s.rows[0]!.id).toBe('r8');
    expect(parseStoredRows('{"type":"nope","rows":[]}')).toBeNull();
    expect(parseStoredRows('not json')).toBeNull();
  });
});

describe('selectedRows', () => {
  it('gives one row per selected module with its name and month, the description as placeholder only', async () => {
    const { selectedRows } = await import('./selected-rows');
    const s = selectedRows({
      modules: [
        { moduleName: 'AU_01', monthId: 'M03_2027', moduleDescription: 'Sun' },
        { moduleName: 'AU_02', monthId: 'M04_2027', moduleDescription: '' },
      ],
    });
    expect(s.rows.map((r) => [r.values.moduleLabels, r.values.monthIdList, r.values.moduleDescription, r.placeholders?.moduleDescription])).toEqual([
      ['AU_01', 'M03_2027', '', 'Sun'],
      ['AU_02', 'M04_2027', '', undefined],
    ]);
    expect(selectedRows(null).rows).toHaveLength(1);
  });
});
