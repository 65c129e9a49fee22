import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatInteger,
  formatNumber,
  formatPercent,
  formatPrice,
  statusLabel,
  toDate,
} from './format';

const NBSP = '\u00a0';

describe('formatNumber', () => {
  it('uses comma decimals and dot thousands', () => {
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(formatNumber(1234567.891)).toBe('1.234.567,89');
    expect(formatNumber(0.5)).toBe('0,5');
    expect(formatNumber(-9876.25)).toBe('-9.876,25');
  });

  it('groups four-digit numbers too', () => {
    expect(formatNumber(1000)).toBe('1.000');
  });

  it('honours the decimal bounds', () => {
    expect(formatNumber(3.14159, 3)).toBe('3,142');
    expect(formatNumber(2, 2, 2)).toBe('2,00');
  });

  it('leaves missing values blank', () => {
    expect(formatNumber(null)).toBe('');
    expect(formatNumber(undefined)).toBe('');
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('formatInteger', () => {
  it('rounds and groups', () => {
    expect(formatInteger(1234.6)).toBe('1.235');
    expect(formatInteger(42)).toBe('42');
    expect(formatInteger(null)).toBe('');
  });
});

describe('formatPercent', () => {
  it('formats percentage points', () => {
    expect(formatPercent(12.5)).toBe('12,5%');
    expect(formatPercent(30)).toBe('30%');
    expect(formatPercent(33.333, 2)).toBe('33,33%');
    expect(formatPercent(undefined)).toBe('');
  });
});

describe('formatPrice', () => {
  it('formats euros the Italian way', () => {
    expect(formatPrice(1234.5)).toBe(`1.234,50${NBSP}€`);
    expect(formatPrice(0)).toBe(`0,00${NBSP}€`);
    expect(formatPrice(99.999)).toBe(`100,00${NBSP}€`);
    expect(formatPrice(null)).toBe('');
  });
});

describe('dates', () => {
  it('formats day/month/year', () => {
    expect(formatDate(new Date(2026, 10, 21))).toBe('21/11/2026');
    expect(formatDate(new Date(2027, 0, 5))).toBe('05/01/2027');
  });

  it('reads plain dates as calendar days, whatever the time zone', () => {
    expect(formatDate('2026-11-21')).toBe('21/11/2026');
    expect(toDate('2026-11-21')?.getHours()).toBe(0);
  });

  it('formats date-times in 24-hour local time', () => {
    expect(formatDateTime(new Date(2026, 10, 21, 14, 5))).toBe('21/11/2026 14:05');
    expect(formatDateTime(new Date(2026, 10, 21, 9, 0).getTime())).toBe('21/11/2026 09:00');
  });

  it('leaves missing or unreadable dates blank', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(new Date(Number.NaN))).toBe('');
  });
});

describe('statusLabel', () => {
  it('replaces underscores with spaces', () => {
    expect(statusLabel('SUBMIT_IN_PROGRESS')).toBe('SUBMIT IN PROGRESS');
    expect(statusLabel('WIP')).toBe('WIP');
    expect(statusLabel('READY_TO_BE_DELETED')).toBe('READY TO BE DELETED');
    expect(statusLabel(undefined)).toBe('');
  });
});
