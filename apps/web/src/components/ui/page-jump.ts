/**
 * The "Go to page" input of every pager (paged-pager.tsx) (part 2 §5): a page from 1 to the total;
 * 0 or below becomes 1; Apply is disabled when empty, not a number, 0 or below, the current page or
 * above the total, with the reason shown.
 */
export const PAGE_JUMP_TEXTS = {
  tooHigh: (max: number) => `Value must be lower than ${max}`,
  samePage: (n: number) => `You are already seeing page ${n}`,
} as const;

type PageJump = { ok: true; page: number } | { ok: false; error: string | null };

export function checkPageJump(input: string, current: number, total: number): PageJump {
  const text = input.trim();
  if (text === '' || !/^-?\d+$/.test(text)) return { ok: false, error: null };
  const value = Number(text);
  if (value <= 0) return { ok: false, error: null };
  if (value > total) return { ok: false, error: PAGE_JUMP_TEXTS.tooHigh(total) };
  if (value === current) return { ok: false, error: PAGE_JUMP_TEXTS.samePage(current) };
  return { ok: true, page: value };
}

/** What the input holds once the user leaves it: 0 or below is set to 1. */
export const normalisePageInput = (input: string) => (/^-?\d+$/.test(input.trim()) && Number(input) <= 0 ? '1' : input);

/** How many pages `count` rows make at `pageSize` a page: at least one. */
export const pageCount = (count: number, pageSize: number) => Math.max(1, Math.ceil(count / Math.max(1, pageSize)));
