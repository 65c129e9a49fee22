import { describe, expect, it } from 'vitest';
import { checkPageJump, normalisePageInput, pageCount, PAGE_JUMP_TEXTS } from './page-jump';

describe('checkPageJump', () => {
  it('accepts a page from 1 to the total other than the current one', () => {
    expect(checkPageJump('3', 1, 5)).toEqual({ ok: true, page: 3 });
    expect(checkPageJump('5', 1, 5)).toEqual({ ok: true, page: 5 });
  });
  it('refuses the current page, a page above the total, empty, 0 and text', () => {
    expect(checkPageJump('2', 2, 5)).toEqual({ ok: false, error: PAGE_JUMP_TEXTS.samePage(2) });
    expect(checkPageJump('6', 1, 5)).toEqual({ ok: false, error: 'Value must be lower than 5' });
    for (const input of ['', ' ', 'abc', '0', '-2', '1.5']) expect(checkPageJump(input, 1, 5).ok, input).toBe(false);
  });
  it('sets 0 or below to 1 on leaving the input', () => {
    expect(normalisePageInput('0')).toBe('1');
    expect(normalisePageInput('-3')).toBe('1');
    expect(normalisePageInput('4')).toBe('4');
  });
});

describe('pageCount', () => {
  it('counts pages rounding up, at least one', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
    expect(pageCount(101, 50)).toBe(3);
  });
});
