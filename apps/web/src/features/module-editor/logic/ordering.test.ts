import { describe, expect, it } from 'vitest';
import { compareModules } from './ordering';

const m = (moduleName: string, extra: Partial<{ specialKind: string | null; door: number; mustHaveCount: number }> = {}) => ({
  moduleName,
  macroFamily: 'F',
  specialKind: null,
  door: 0,
  mustHaveCount: 0,
  ...extra,
});

describe('module order', () => {
  it('puts special families first, then the chosen order', () => {
    const list = [m('B', { door: 5 }), m('A', { door: 1 }), m('S', { specialKind: 'BEST_SELLER' }), m('C', { door: 9 })];
    expect(list.slice().sort(compareModules('name')).map((x) => x.moduleName)).toEqual(['S', 'A', 'B', 'C']);
    expect(list.slice().sort(compareModules('door')).map((x) => x.moduleName)).toEqual(['S', 'C', 'B', 'A']);
  });

  it('follows the dragged order, special families included, and puts unknown modules after it by name', () => {
    const list = [m('B'), m('A'), m('S', { specialKind: 'NEWNESS' }), m('D'), m('C')];
    expect(list.slice().sort(compareModules('custom', ['C', 'S', 'A'])).map((x) => x.moduleName)).toEqual(['C', 'S', 'A', 'B', 'D']);
  });
});
