import { describe, expect, it } from 'vitest';
import {
  DELETION_AREA_TEXTS,
  STATUS_FILTERS,
  dotColor,
  emptyMessage,
  isRestorable,
  monthTooltip,
  pageSelection,
  restoreFailureText,
  rowError,
  toRow,
  togglePage,
  windowMonths,
} from './deletion-area';

const month = (monthId: string, status: 'ACTIVE' | 'DELETION_PENDING' | 'NOT_PRESENT', extra: { createdAfterDelete?: boolean } = {}) => ({
  monthId,
  status,
  createdAfterDelete: extra.createdAfterDelete ?? false,
  uiVisible: status === 'ACTIVE',
});

describe('dots and tooltips', () => {
  it('is yellow for a month created again after the deletion, even though it is live', () => {
    expect(dotColor({ createdAfterDelete: true, uiVisible: true })).toBe('yellow');
  });
  it('is green for a live month and red otherwise', () => {
    expect(dotColor({ createdAfterDelete: false, uiVisible: true })).toBe('green');
    expect(dotColor({ createdAfterDelete: false, uiVisible: false })).toBe('red');
  });
  it("reads 'label - month: status label'", () => {
    expect(monthTooltip('Sun Basics', { monthId: 'M03_2027', status: 'DELETION_PENDING' })).toBe('Sun Basics - 03/2027: Deletion pending');
    expect(monthTooltip('C1', { monthId: 'M12_2026', status: 'NOT_PRESENT' })).toBe('C1 - 12/2026: Not present');
  });
});

describe('rows', () => {
  it('maps a module and a cluster to the same row shape', () => {
    const base = { status: 'DELETION_PENDING' as const, brand: 'RB', errorMessage: null, deleteFromMonthId: 'M01_2027', openMonthList: [] };
    expect(toRow('module', { ...base, moduleName: 'MOD1', moduleLabel: 'Label 1' })).toMatchObject({ key: 'MOD1', label: 'Label 1' });
    expect(toRow('cluster', { ...base, clusterId: 'CL1', clusterLabel: 'Cl', storeJda: null, codiceStoreSap: null })).toMatchObject({
      key: 'CL1',
      label: 'Cl',
    });
  });
  it('lets only DELETION_PENDING rows be restored', () => {
    expect(isRestorable({ status: 'DELETION_PENDING' })).toBe(true);
    for (const status of ['DELETED', 'READY_TO_BE_DELETED', 'DELETION_IN_PROGRESS', 'DELETION_ERROR', 'ACTIVE'] as const)
      expect(isRestorable({ status })).toBe(false);
  });
  it("shows the item's error message, or the default one for an error without a message", () => {
    expect(rowError({ status: 'DELETION_ERROR', errorMessage: 'The module is used by cluster X being submitted' })).toBe(
      'The module is used by cluster X being submitted',
    );
    expect(rowError({ status: 'DELETION_ERROR', errorMessage: null })).toBe('An error occurred during deletion.');
    expect(rowError({ status: 'DELETED', errorMessage: null })).toBeNull();
  });
  it('takes the month columns from the window the server sent, in its order', () => {
    const row = (ms: string[]) => ({ ...toRow('module', { moduleName: 'M', moduleLabel: 'M', status: 'DELETED', brand: 'RB', errorMessage: null, deleteFromMonthId: 'M01_2027', openMonthList: ms.map((m) => month(m, 'ACTIVE')) }) });
    expect(windowMonths([row(['M12_2026', 'M01_2027']), row(['M12_2026', 'M01_2027'])])).toEqual(['M12_2026', 'M01_2027']);
    expect(windowMonths([])).toEqual([]);
  });
});

describe('empty messages', () => {
  it('asks for a status when none is checked', () => {
    expect(emptyMessage([])).toBe('Please select at least one status filter to view items.');
  });
  it('names the status filters when some are unchecked, the criteria when all are checked', () => {
    expect(emptyMessage(['DELETED'])).toBe('No items found matching the selected status filters.');
    expect(emptyMessage([...STATUS_FILTERS])).toBe('No items found for the selected criteria.');
  });
});

describe('selection', () => {
  it("select-all toggles the page's rows only and keeps the other pages' choices", () => {
    const other = new Set(['Z']);
    const all = togglePage(['A', 'B'], other);
    expect([...all].sort()).toEqual(['A', 'B', 'Z']);
    expect(pageSelection(['A', 'B'], all)).toEqual({ all: true, some: false });
    expect([...togglePage(['A', 'B'], all)]).toEqual(['Z']);
    expect(pageSelection(['A', 'B'], new Set(['A']))).toEqual({ all: false, some: true });
    expect(pageSelection([], new Set(['A']))).toEqual({ all: false, some: false });
  });
});

describe('restore texts', () => {
  it("prefers the answer data's message, then the error's, then the default", () => {
    expect(restoreFailureText('module', { data: { message: 'from data' }, message: 'err' })).toBe('from data');
    expect(restoreFailureText('module', new Error('err'))).toBe('err');
    expect(restoreFailureText('cluster', null)).toBe('Failed to restore clusters.');
  });
  it('words the button and the question per view', () => {
    expect(DELETION_AREA_TEXTS.restoreButton(2)).toBe('Restore Selected (2)');
    expect(DELETION_AREA_TEXTS.confirmQuestion('module')).toBe('Are you sure you want to restore the following module(s)?');
    expect(DELETION_AREA_TEXTS.confirmQuestion('cluster')).toBe('Are you sure you want to restore the following cluster(s)?');
  });
});
