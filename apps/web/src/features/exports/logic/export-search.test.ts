import { describe, expect, it } from 'vitest';
import type { ClusterExportResult, ModuleExportResult } from '@bo/shared/export-search';
import { canSearch, emptyFilters, exportStatusOf, exportTarget, INITIAL_SELECTION, optionsWithChosen, resultKey, toggleStatus, toRequest } from './export-search';

const moduleResult = (moduleName: string, legoMonth = false): ModuleExportResult => ({
  moduleName,
  moduleLabel: `${moduleName} label`,
  monthId: 'M01_2027',
  macroFamily: 'PILOT',
  brand: 'AUR',
  collection: 'SUN',
  planningChannel: null,
  starZones: ['EU'],
  status: 'SUBMITTED',
  newModule: false,
  legoMonth,
  length: 3,
  elLength: 1,
});
const clusterResult = (clusterId: string): ClusterExportResult => ({
  clusterId,
  clusterLabel: `${clusterId} label`,
  monthId: 'M02_2027',
  brandCode: 'AUR',
  collection: 'SUN',
  planningChannel: null,
  country: ['IT'],
  starZones: ['EU'],
  status: 'WIP',
  legoMonth: true,
  rangeFacing: null,
  door: 4,
});

describe('export search rules', () => {
  it('searches only with a month (part 2 §5) and a status', () => {
    expect(canSearch(INITIAL_SELECTION)).toBe(false);
    const withMonth = { ...INITIAL_SELECTION, filters: { ...emptyFilters(), monthId: ['M01_2027'] } };
    expect(canSearch(withMonth)).toBe(true);
    expect(canSearch({ ...withMonth, statuses: [] })).toBe(false);
    expect(canSearch({ ...INITIAL_SELECTION, filters: { ...emptyFilters(), brand: ['AUR'] } })).toBe(false);
  });

  it('sends the chosen filters only, with the statuses', () => {
    const s = { ...INITIAL_SELECTION, statuses: ['Published', 'Saved'] as const, filters: { ...emptyFilters(), monthId: ['M01_2027'], clusterId: ['C1', 'C2'] } };
    expect(toRequest({ ...s, statuses: [...s.statuses] })).toEqual({ status: ['Published', 'Saved'], monthId: ['M01_2027'], clusterId: ['C1', 'C2'] });
  });

  it('keeps at least one status ticked, in the spec order', () => {
    expect(toggleStatus(['Published'], 'Published', false)).toEqual(['Published']);
    expect(toggleStatus(['Published'], 'Saved', true)).toEqual(['Published', 'Saved']);
    expect(toggleStatus(['Saved'], 'Published', true)).toEqual(['Published', 'Saved']);
    expect(toggleStatus(['Published', 'Saved'], 'Published', false)).toEqual(['Saved']);
  });

  it('keeps the chosen values among the options', () => {
    expect(optionsWithChosen('brand', { brand: [{ value: 'AUR', label: 'Aurora' }] }, ['AUR', 'VLT'])).toEqual([
      { value: 'AUR', label: 'Aurora' },
      { value: 'VLT', label: 'VLT' },
    ]);
    expect(optionsWithChosen('brand', undefined, [])).toEqual([]);
  });

  it('builds the export body: names, months, the LEGO badge, the chosen customers', () => {
    expect(exportTarget({ kind: 'module', statuses: ['Published'], customers: [] }, [moduleResult('A', true), moduleResult('B')])).toEqual({
      type: 'module',
      items: [
        { moduleName: 'A', monthId: 'M01_2027', legoMonth: true },
        { moduleName: 'B', monthId: 'M01_2027', legoMonth: false },
      ],
    });
    expect(exportTarget({ kind: 'cluster', statuses: ['Saved'], customers: ['CU1'] }, [clusterResult('C1')])).toEqual({
      type: 'cluster',
      items: [{ clusterName: 'C1', monthId: 'M02_2027', legoMonth: true, customers: ['CU1'] }],
    });
    expect(resultKey(clusterResult('C1'))).toBe('C1|M02_2027');
  });

  it('exports the saved version as soon as Saved is ticked', () => {
    expect(exportStatusOf({ kind: 'module', statuses: ['Published'], customers: [] })).toBe('Published');
    expect(exportStatusOf({ kind: 'module', statuses: ['Saved'], customers: [] })).toBe('Saved');
    expect(exportStatusOf({ kind: 'module', statuses: ['Published', 'Saved'], customers: [] })).toBe('Saved');
  });
});
