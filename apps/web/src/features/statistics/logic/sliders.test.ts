import { describe, expect, it } from 'vitest';
import type { StatisticFilterOptions } from '@bo/shared/statistics';
import { anyMoved, rangeOf, scopeFromQuery, setRange, sliderKey, toFilters } from './sliders';

const opt = (value: string) => ({ value, label: value });
const OPTIONS: StatisticFilterOptions = {
  marketingTheme: [opt('CORE'), opt('SPORT')],
  polar: [opt('YES'), opt('NO')],
  gender: [opt('MAN')],
  material: [],
  prizm: [opt('NO')],
};

describe('the sliders', () => {
  it('count as moved only away from 0–100, and a slider moved back is no longer moved', () => {
    let ranges = setRange({}, sliderKey('gender', 'MAN'), [0, 100]);
    expect(anyMoved(ranges)).toBe(false);
    ranges = setRange(ranges, sliderKey('gender', 'MAN'), [0, 40]);
    expect(anyMoved(ranges)).toBe(true);
    expect(rangeOf(ranges, sliderKey('gender', 'MAN'))).toEqual([0, 40]);
    ranges = setRange(ranges, sliderKey('gender', 'MAN'), [0, 100]);
    expect(anyMoved(ranges)).toBe(false);
    expect(rangeOf(ranges, sliderKey('polar', 'YES'))).toEqual([0, 100]);
  });

  it('send one filter per moved slider, in category order, and none for the others', () => {
    let ranges = setRange({}, sliderKey('polar', 'YES'), [50, 50]);
    ranges = setRange(ranges, sliderKey('marketingTheme', 'SPORT'), [10, 90]);
    expect(toFilters(ranges, OPTIONS)).toEqual([
      { field: 'marketingTheme', searchValue: 'SPORT', minRange: 10, maxRange: 90 },
      { field: 'polar', searchValue: 'YES', minRange: 50, maxRange: 50 },
    ]);
  });
});

describe('scopeFromQuery', () => {
  it('reads the month, brands and collections of the home link, and refuses a link without month or brand', () => {
    expect(scopeFromQuery(new URLSearchParams('monthId=M01_2027&brand=AUR&brand=VLT&collection=SUN'))).toEqual({
      monthId: 'M01_2027',
      brand: ['AUR', 'VLT'],
      collection: ['SUN'],
    });
    expect(scopeFromQuery(new URLSearchParams('monthId=M01_2027'))).toBeNull();
    expect(scopeFromQuery(new URLSearchParams('brand=AUR'))).toBeNull();
    expect(scopeFromQuery(new URLSearchParams('monthId=January&brand=AUR'))).toBeNull();
  });
});
