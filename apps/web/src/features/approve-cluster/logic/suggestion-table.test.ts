import { describe, expect, it } from 'vitest';
import { SUGGESTION_FILTER_KEYS, type SuggestedCluster } from '@bo/shared/suggested-clusters';
import { decisionLines, matchesFilters, SUGGESTION_COLUMNS, SUGGESTION_TABLE_MIN_WIDTH, valuesOf } from './suggestion-table';

const line = (over: Partial<SuggestedCluster> = {}): SuggestedCluster => ({
  assortmentId: 'SUG_1',
  originalAssortment: 'AUR_SUN_EU_01',
  releaseId: 'R2027',
  monthId: 'M03_2027',
  brandCode: 'AUR',
  collection: 'SUN',
  country: 'IT',
  userSuggest: 'buyer@example.com',
  dateSuggest: '2027-03-14',
  period: 'FW 2027',
  starsCustomer: ['C1', 'C2'],
  customerSegmentation: ['GOLD'],
  storeJda: ['100', '200', '300'],
  status: 'PENDING',
  message: null,
  decidedBy: null,
  decidedAt: null,
  stores: [],
  modules: [],
  canDecide: true,
  ...over,
});

describe('approve cluster table', () => {
  it('has the spec’s ten columns in its order, each headed in words, never a field name', () => {
    expect(SUGGESTION_COLUMNS.map((c) => c.key)).toEqual([...SUGGESTION_FILTER_KEYS]);
    expect(SUGGESTION_COLUMNS.map((c) => c.label)).toEqual([
      'Country',
      'Suggested by',
      'Date',
      'Original assortment',
      'Assortment id',
      'Period',
      'Stars Customer',
      'Customer Segmentation',
      'Store Id',
      'Status',
    ]);
    for (const c of SUGGESTION_COLUMNS) expect(c.label).not.toMatch(/^[a-z]+[A-Z]/);
  });

  it('is narrow enough for a 1440 px window (page padding and frame border included)', () => {
    expect(SUGGESTION_TABLE_MIN_WIDTH).toBeLessThanOrEqual(1440 - 2 * 20 - 2);
  });

  it('reads one value for a plain column and the unique list for the store columns', () => {
    expect(valuesOf(line(), 'country')).toEqual(['IT']);
    expect(valuesOf(line(), 'storeJda')).toEqual(['100', '200', '300']);
  });

  it('keeps a row when each filter is empty or holds one of its values; list columns match on any value', () => {
    const row = line();
    expect(matchesFilters(row, {})).toBe(true);
    expect(matchesFilters(row, { country: [] })).toBe(true);
    expect(matchesFilters(row, { country: ['IT', 'FR'] })).toBe(true);
    expect(matchesFilters(row, { country: ['FR'] })).toBe(false);
    expect(matchesFilters(row, { storeJda: ['200'] })).toBe(true);
    expect(matchesFilters(row, { storeJda: ['999'] })).toBe(false);
    expect(matchesFilters(row, { dateSuggest: ['2027-03-14'] })).toBe(true);
    // All filters together.
    expect(matchesFilters(row, { country: ['IT'], status: ['REJECTED'] })).toBe(false);
    expect(matchesFilters(row, { country: ['IT'], status: ['PENDING'], starsCustomer: ['C2'] })).toBe(true);
  });

  it("tells after a decision the server's message, the cluster it made and the modules it left out", () => {
    expect(decisionLines({ status: 'REJECTED', message: 'You have rejected the cluster', clusterId: null, monthId: null, skippedModules: [] })).toEqual([
      'You have rejected the cluster',
    ]);
    expect(
      decisionLines({ status: 'APPROVED', message: 'You have approved the cluster', clusterId: 'AUR_SUN_EU_01', monthId: 'M03_2027', skippedModules: ['M1', 'M2'] }),
    ).toEqual(['You have approved the cluster', 'Cluster AUR_SUN_EU_01 (03/2027)', 'Modules not available in the month, left out: M1, M2']);
  });
});
