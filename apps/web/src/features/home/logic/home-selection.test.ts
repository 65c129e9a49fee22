import { describe, expect, it } from 'vitest';
import { canSearch, EMPTY_SELECTION, mergeOptions, summaryOf, toFilters } from './home-selection';

describe('home selection', () => {
  it('searches with a month and at least one more filter', () => {
    expect(canSearch(EMPTY_SELECTION)).toBe(false);
    expect(canSearch({ ...EMPTY_SELECTION, brand: ['AUR'] })).toBe(false);
    expect(canSearch({ ...EMPTY_SELECTION, monthId: 'M03_2027' })).toBe(false);
    expect(canSearch({ ...EMPTY_SELECTION, monthId: 'M03_2027', starsZone: ['EU'] })).toBe(true);
  });

  it('sends every filter as a list', () => {
    expect(toFilters({ ...EMPTY_SELECTION, monthId: 'M03_2027', brand: ['AUR', 'VLT'] })).toEqual({
      monthId: ['M03_2027'],
      planningChannel: [],
      brand: ['AUR', 'VLT'],
      collection: [],
      starsZone: [],
    });
  });

  it('offers the union of module and cluster options, plus what is chosen', () => {
    const modules = { brand: [{ value: 'AUR', label: 'Aurora' }] };
    const clusters = { brand: [{ value: 'VLT', label: 'Velto' }, { value: 'AUR', label: 'Aurora' }] };
    const initial = { brand: [{ value: 'MRA', label: 'Marea' }] };
    expect(mergeOptions('brand', [modules, clusters], ['MRA'], initial)).toEqual([
      { value: 'AUR', label: 'Aurora' },
      { value: 'MRA', label: 'Marea' },
      { value: 'VLT', label: 'Velto' },
    ]);
  });

  it("says what was searched with people's labels", () => {
    const initial = { brand: [{ value: 'AUR', label: 'Aurora Optics' }] };
    expect(summaryOf({ ...EMPTY_SELECTION, monthId: 'M03_2027', brand: ['AUR'], starsZone: ['EU'] }, initial)).toEqual([
      { label: 'Month', values: ['03/2027'] },
      { label: 'Brand', values: ['Aurora Optics'] },
      { label: 'Stars zone', values: ['EU'] },
    ]);
  });
});
