import { describe, expect, it } from 'vitest';
import { emptyRow } from './draft-rows';
import { applyPaste, isHeaderRow, isOrdinaryPaste, parseClipboardTable, pastedValue, splitPastedList, withoutHeaderLine } from './paste';
import { FIELDS } from './fields';

const field = (key: string) => FIELDS.module.find((f) => f.key === key)!;

describe('parseClipboardTable (Excel text)', () => {
  it('splits tab-separated columns and one row per line, without the final line break Excel adds', () => {
    expect(parseClipboardTable('A1\tB1\r\nA2\tB2\r\n')).toEqual([
      ['A1', 'B1'],
      ['A2', 'B2'],
    ]);
  });

  it('reads a quoted cell with line breaks and doubled quotes as one cell', () => {
    expect(parseClipboardTable('"8050\n8051"\tsays ""hi""\r\nM2\t"a ""b"""\n')).toEqual([
      ['8050\n8051', 'says ""hi""'],
      ['M2', 'a "b"'],
    ]);
  });

  it('keeps empty cells and a quote that does not close the cell as text', () => {
    expect(parseClipboardTable('a\t\tc\n"x" y\t')).toEqual([
      ['a', '', 'c'],
      ['"x" y', ''],
    ]);
  });

  it('tells an ordinary paste (one value; one column into a list cell) from a block', () => {
    expect(isOrdinaryPaste('8050000000017', field('moduleDescription'))).toBe(true);
    expect(isOrdinaryPaste('8050000000017\r\n', field('moduleDescription'))).toBe(true);
    expect(isOrdinaryPaste('a\tb', field('upcToAddList'))).toBe(false);
    expect(isOrdinaryPaste('a\nb', field('moduleDescription'))).toBe(false);
    // A column of UPCs pasted into ADD stays in that cell, one per line.
    expect(isOrdinaryPaste('8050000000017\r\n8050000000024\r\n', field('upcToAddList'))).toBe(true);
  });
});

describe('pasted values', () => {
  it('splits a list cell on line breaks, commas and semicolons', () => {
    expect(splitPastedList(' 1, 2;3\n\n4 ')).toEqual(['1', '2', '3', '4']);
    expect(pastedValue(field('upcToAddList'), '1, 2;3')).toBe('1\n2\n3');
  });

  it('reads months as M03_2027 or 03/2027', () => {
    expect(pastedValue(field('monthIdList'), 'M03_2027, 04/2027;5/2027 m06_2027')).toBe('M03_2027\nM04_2027\nM05_2027\nM06_2027');
    expect(pastedValue(field('monthIdList'), '13/2027')).toBe('13/2027');
  });

  it('upper-cases the status (empty is MH) and applies the min value rules', () => {
    expect(pastedValue(field('upcStatus'), ' el ')).toBe('EL');
    expect(pastedValue(field('upcStatus'), '')).toBe('MH');
    expect(pastedValue(field('upcMinValueSkuValue'), '0,5')).toBe('1');
    expect(pastedValue(field('upcMinValueSkuValue'), '2,25')).toBe('2.3');
    expect(pastedValue(field('upcMinValueSkuValue'), '')).toBe('1');
  });
});

describe('applyPaste', () => {
  let n = 0;
  const newId = () => `p${n++}`;

  it('fills rows and columns from the cell it starts at, in paste order, adding rows below', () => {
    const rows = [emptyRow('module', 'a'), emptyRow('module', 'b')];
    const table = parseClipboardTable('AU_01\tNew text\t"8050\n8051"\t\tel\t03/2027\t8050\t2\nAU_02\t\t9000\r\nAU_03\n');
    const { rows: out, added, droppedColumns } = applyPaste('module', rows, 1, 0, table, newId);
    expect(out).toHaveLength(4);
    expect(added).toBe(2);
    expect(droppedColumns).toBe(false);
    expect(out[0]).toEqual(rows[0]);
    expect(out[1]!.id).toBe('b');
    expect(out[1]!.values).toEqual({
      moduleLabels: 'AU_01',
      moduleDescription: 'New text',
      upcToAddList: '8050\n8051',
      upcToRemoveList: '',
      upcStatus: 'EL',
      monthIdList: 'M03_2027',
      upcMinValueSkuList: '8050',
      upcMinValueSkuValue: '2',
    });
    expect(out[2]!.values.moduleLabels).toBe('AU_02');
    expect(out[2]!.values.upcToAddList).toBe('9000');
    expect(out[3]!.values.moduleLabels).toBe('AU_03');
    expect(out[3]!.values.upcStatus).toBe('MH');
  });

  it('starts at a middle column and says when columns fall beyond the last one', () => {
    const rows = [emptyRow('classification', 'a')];
    const { rows: out, droppedColumns } = applyPaste('classification', rows, 0, 1, [['GOLD', 'SILVER', 'extra']], newId);
    expect(out[0]!.values).toEqual({ clusterLabels: '', classificationsToAdd: 'GOLD', classificationsToRemove: 'SILVER' });
    expect(droppedColumns).toBe(true);
  });

  it('skips a first row that repeats the headers', () => {
    const rows = [emptyRow('cluster', 'a')];
    const { rows: out } = applyPaste('cluster', rows, 0, 0, [['CLUSTER', 'DESCRIPTION'], ['C1', 'text']], newId);
    expect(out).toHaveLength(1);
    expect(out[0]!.values.clusterLabels).toBe('C1');
  });
});

describe('pasted header rows (issue 34 item 7)', () => {
  let n = 0;
  const newId = () => `h${n++}`;
  const data = (type: 'module' | 'cluster' | 'classification', text: string, startField = 0) =>
    applyPaste(type, [emptyRow(type, 'a')], 0, startField, parseClipboardTable(text), newId).rows.map((r) => r.values);

  it('skips the spec’s module header, which names MIN VALUE once for the SKU list column', () => {
    const rows = data('module', 'MODULE\tDESCRIPTION\tADD\tREMOVE\tSTATUS\tMONTH\tMIN VALUE\tMIN VALUE\nAU_01\tText\n');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.moduleLabels).toBe('AU_01');
  });

  it('skips cluster and classification headers, spelled out, in lower case or with a trailing dot', () => {
    expect(data('cluster', 'Cluster\tDescription\tAdd module\tRemove module\tAdd LIA\tRemove LIA\tMonths\nCL_1\tx\n').map((r) => r.clusterLabels)).toEqual(['CL_1']);
    expect(data('classification', 'CLUSTER\tADD CLIENT CLASSIFICATION\tREMOVE CLIENT CLASS.\nCL_1\tA1\n').map((r) => [r.clusterLabels, r.classificationsToAdd])).toEqual([['CL_1', 'A1']]);
    expect(data('classification', 'cluster\tadd client class.\tremove client class.\nCL_1\tA1\n')).toHaveLength(1);
  });

  it('skips a header pasted from a later column, and keeps a data row whose cells are not all headers', () => {
    expect(data('module', 'ADD\tREMOVE\n8050\t\n', 2).map((r) => r.upcToAddList)).toEqual(['8050']);
    expect(data('module', 'MODULE\tAU_01\n')[0]!.moduleLabels).toBe('MODULE');
  });

  it('drops the title line of a single column pasted into a list cell', () => {
    expect(withoutHeaderLine('module', FIELDS.module[0]!, 'MODULE\nAU_01\nAU_02')).toBe('AU_01\nAU_02');
    expect(withoutHeaderLine('cluster', FIELDS.cluster[4]!, 'Add LIA\r\nLIA01')).toBe('LIA01');
    expect(withoutHeaderLine('module', FIELDS.module[0]!, 'AU_00\nAU_01')).toBe('AU_00\nAU_01');
    expect(isHeaderRow('module', ['MIN VALUE SKUs', 'MIN VALUE'], 6)).toBe(true);
  });
});
