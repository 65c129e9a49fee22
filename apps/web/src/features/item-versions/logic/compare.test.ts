import { describe, expect, it } from 'vitest';
import type { ClusterVersionContent, ModuleVersionContent } from '@bo/shared/item-versions';
import type { ProductDto } from '@bo/shared/modules';
import {
  clusterCompareSummary,
  compareClusterContents,
  compareModuleContents,
  moduleCompareSummary,
  moduleContentOf,
  restoreModuleVersion,
  upcsToFetch,
} from './compare';

function sku(upc: string, patch: Partial<ProductDto> = {}): ProductDto {
  return {
    upc, skuId: 1, model: `M${upc}`, color: '001', size: '55', materialCode: 'x', skuCode: 'x', mustHave: false, eligible: true,
    moduleCompositionStatus: 'ADDED', previousStatus: null, previousVersion: null, minValue: 1, srp: 1, whsprice: 1, sellIn: null,
    sellOut: null, outOfStars: null, rankSellIn: null, rankSellOut: null, rankOutOfStars: null, skuTurn: null, doorIndex: null, pty: null,
    releaseDate: '2026-01-01', insertDate: '2026-01-01', gedExpireDate: null, flagN: false, flagNewAdv: false, flagDisco: false,
    globalCatalogue: 'YES', polar: false, sapStatus: null, deleted: false, newIn: false, imageUrl: '', ...patch,
  };
}
const mh = (upc: string, patch: Partial<ProductDto> = {}) => sku(upc, { mustHave: true, eligible: false, ...patch });
const el = (upc: string, patch: Partial<ProductDto> = {}) => sku(upc, { mustHave: false, eligible: true, ...patch });
const bin = (upc: string, was: 'MH' | 'EL') => sku(upc, { mustHave: was === 'MH', eligible: was === 'EL', moduleCompositionStatus: 'REMOVED', previousVersion: was });
const line = (upc: string, mustHave: boolean, minValue: number | null = 1) => ({ upc, mustHave, minValue });
const content = (...lines: ModuleVersionContent['lines']): ModuleVersionContent => ({ moduleDescription: 'd', lines });
const noFlags = { missing: [], discontinued: [] };

describe('moduleContentOf', () => {
  it('keeps the active lines with their class and min value, not the bin', () => {
    expect(moduleContentOf([mh('1', { minValue: 3 }), el('2'), bin('3', 'MH')], 'desc')).toEqual({
      moduleDescription: 'desc',
      lines: [line('1', true, 3), line('2', false, 1)],
    });
  });
});

describe('compareModuleContents', () => {
  it('reads added, removed, MH↔EL and min value changes from left to right, changes first', () => {
    const left = content(line('A', true), line('B', false), line('C', true), line('D', false, 2), line('E', true));
    const right = content(line('F', false), line('B', true), line('C', false), line('D', false, 5), line('E', true));
    const rows = compareModuleContents(left, right);
    expect(rows.map((r) => [r.upc, r.change])).toEqual([
      ['F', 'added'],
      ['A', 'removed'],
      ['C', 'mhToEl'],
      ['B', 'elToMh'],
      ['D', 'min'],
      ['E', 'same'],
    ]);
    expect(rows.find((r) => r.upc === 'D')).toMatchObject({ left: 'EL', right: 'EL', leftMin: 2, rightMin: 5 });
    expect(rows.find((r) => r.upc === 'F')).toMatchObject({ left: null, right: 'EL' });
    expect(moduleCompareSummary(rows)).toBe('+1 SKU, −1, 1 MH→EL, 1 EL→MH, 1 min value');
  });

  it('says no change for equal contents', () => {
    const c = content(line('A', true));
    expect(moduleCompareSummary(compareModuleContents(c, c))).toBe('no change');
  });
});

describe('restoreModuleVersion', () => {
  it('makes the version active as it was, sends the other active SKUs to the bin and leaves the bin alone', () => {
    const current = [mh('A'), el('B'), bin('C', 'MH'), bin('D', 'EL'), el('E', { minValue: 4 })];
    const version = content(line('A', false), line('C', true, 7), line('E', false, 2));
    const { products, skipped } = restoreModuleVersion(current, { content: version, flags: noFlags }, []);
    const by = new Map(products.map((p) => [p.upc, p]));
    expect(by.get('A')).toMatchObject({ mustHave: false, eligible: true, moduleCompositionStatus: 'ADDED' });
    expect(by.get('B')).toMatchObject({ moduleCompositionStatus: 'REMOVED', previousVersion: 'EL' });
    expect(by.get('C')).toMatchObject({ mustHave: true, moduleCompositionStatus: 'ADDED', minValue: 7, previousVersion: null });
    expect(by.get('D')).toBe(current[3]);
    expect(by.get('E')).toMatchObject({ minValue: 2 });
    expect(skipped).toEqual([]);
    // What the restore puts on screen is the version itself.
    expect(moduleContentOf(products, 'd').lines.sort((a, b) => a.upc.localeCompare(b.upc))).toEqual(version.lines);
  });

  it('does not restore flagged SKUs: missing and discontinued are skipped, and a flagged SKU still active stays', () => {
    const current = [mh('A'), el('X')];
    const version = content(line('A', true), line('GONE', true), line('DISCO', false));
    const flags = { missing: ['GONE'], discontinued: ['DISCO', 'X'] };
    const { products, skipped } = restoreModuleVersion(current, { content: version, flags }, []);
    expect(products.map((p) => p.upc)).toEqual(['A', 'X']);
    expect(products[1]).toBe(current[1]);
    expect(skipped).toEqual([
      { upc: 'GONE', reason: 'missing' },
      { upc: 'DISCO', reason: 'discontinued' },
    ]);
  });

  it('never lists as not restored a flagged SKU that is active on screen: it takes the version\'s class; one in the bin stays there', () => {
    const current = [el('DISCO'), bin('GONE', 'MH'), mh('A')];
    const version = content(line('DISCO', true, 2), line('GONE', true), line('A', true));
    const flags = { missing: ['GONE'], discontinued: ['DISCO'] };
    const { products, skipped } = restoreModuleVersion(current, { content: version, flags }, []);
    const by = new Map(products.map((p) => [p.upc, p]));
    expect(by.get('DISCO')).toMatchObject({ mustHave: true, eligible: false, minValue: 2, moduleCompositionStatus: 'ADDED' });
    expect(by.get('GONE')).toBe(current[1]);
    expect(skipped).toEqual([{ upc: 'GONE', reason: 'missing' }]);
  });

  it('adds a version SKU the module no longer has from the search, or skips it when not found', () => {
    const current = [mh('A')];
    const version = content(line('A', true), line('N', true, 3), line('LOST', false));
    expect(upcsToFetch(current, { content: version, flags: noFlags })).toEqual(['N', 'LOST']);
    const { products, skipped } = restoreModuleVersion(current, { content: version, flags: noFlags }, [el('N', { minValue: 9 })]);
    expect(products.at(-1)).toMatchObject({ upc: 'N', mustHave: true, eligible: false, minValue: 3, moduleCompositionStatus: 'ADDED' });
    expect(skipped).toEqual([{ upc: 'LOST', reason: 'notFound' }]);
  });

  it('does not ask the search for flagged SKUs', () => {
    expect(upcsToFetch([], { content: content(line('A', true), line('B', true)), flags: { missing: ['A'], discontinued: [] } })).toEqual(['B']);
  });
});

describe('cluster comparisons', () => {
  const c = (patch: Partial<ClusterVersionContent>): ClusterVersionContent => ({ clusterDescription: 'd', stores: [], modules: [], lias: [], classifications: [], ...patch });

  it('lists what only one side has and what both have, for stores, modules, LIAs and classifications', () => {
    const left = c({ stores: ['S1', 'S2'], modules: ['M1'], lias: ['L1'], classifications: [3, 1] });
    const right = c({ stores: ['S2', 'S3', 'S4'], modules: [], lias: ['L1'], classifications: [1, 2], clusterDescription: 'e' });
    const cmp = compareClusterContents(left, right);
    expect(cmp.stores).toEqual({ onlyLeft: ['S1'], onlyRight: ['S3', 'S4'], both: ['S2'] });
    expect(cmp.modules).toEqual({ onlyLeft: ['M1'], onlyRight: [], both: [] });
    expect(cmp.classifications).toEqual({ onlyLeft: [3], onlyRight: [2], both: [1] });
    expect(cmp.description.changed).toBe(true);
    expect(clusterCompareSummary(cmp)).toBe('+2 stores, −1 store, −1 module, +1 classification, −1 classification, description');
    expect(clusterCompareSummary(compareClusterContents(left, left))).toBe('no change');
  });
});
