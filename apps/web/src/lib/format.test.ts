import { describe, expect, it } from 'vitest';
import { currentMonth, formatMonthId, formatMonthOption, monthIdOf, monthOptions } from './format';

describe('formatMonthId', () => {
  it('reads a month id the Italian way', () => {
    expect(formatMonthId('M11_2026')).toBe('11/2026');
    expect(formatMonthId('M03_2027')).toBe('03/2027');
  });
  it('leaves anything that is not a month id as it is', () => {
    expect(formatMonthId('2026-11')).toBe('2026-11');
    expect(formatMonthId('M13_2026')).toBe('M13_2026');
  });
});

describe('month options', () => {
  const months = [
    { monthId: 'M01_2027', open: true },
    { monthId: 'M11_2026', open: false },
    { monthId: 'M12_2026', open: true },
  ];
  it('marks closed months', () => {
    expect(formatMonthOption({ monthId: 'M11_2026', open: false })).toBe('11/2026 (closed)');
    expect(formatMonthOption({ monthId: 'M11_2026', open: true })).toBe('11/2026');
  });
  it('lists months oldest first, closed ones marked', () => {
    expect(monthOptions(months)).toEqual([
      { value: 'M11_2026', label: '11/2026 (closed)' },
      { value: 'M12_2026', label: '12/2026' },
      { value: 'M01_2027', label: '01/2027' },
    ]);
  });
  it('leaves closed months out of lists that lead to edits', () => {
    expect(monthOptions(months, { openOnly: true }).map((o) => o.value)).toEqual(['M12_2026', 'M01_2027']);
  });
});

describe('currentMonth', () => {
  const nov2026 = new Date(2026, 10, 23);
  it("is today's month when it is open", () => {
    expect(monthIdOf(nov2026)).toBe('M11_2026');
    expect(currentMonth([{ monthId: 'M10_2026', open: true }, { monthId: 'M11_2026', open: true }, { monthId: 'M12_2026', open: true }], nov2026)).toBe('M11_2026');
  });
  it("is the first open month after today's when today's is closed or missing", () => {
    const months = [
      { monthId: 'M02_2027', open: true },
      { monthId: 'M10_2026', open: true },
      { monthId: 'M11_2026', open: false },
      { monthId: 'M12_2026', open: false },
      { monthId: 'M01_2027', open: true },
    ];
    expect(currentMonth(months, nov2026)).toBe('M01_2027');
    expect(currentMonth(months.filter((m) => m.monthId !== 'M11_2026'), nov2026)).toBe('M01_2027');
  });
  it('falls back to the last open month before today, and to none', () => {
    expect(currentMonth([{ monthId: 'M08_2026', open: true }, { monthId: 'M09_2026', open: true }, { monthId: 'M12_2026', open: false }], nov2026)).toBe('M09_2026');
    expect(currentMonth([{ monthId: 'M11_2026', open: false }], nov2026)).toBeNull();
    expect(currentMonth([], nov2026)).toBeNull();
  });
});
