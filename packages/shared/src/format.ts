/**
 * Italian conventions for everything a planner reads (spec part 1 §9, contract §5):
 * comma decimals, dot thousands (also for four-digit numbers, which it-IT leaves ungrouped by
 * default), dates day/month/year, prices in euros ("1.234,50 €", it-IT style, with a no-break
 * space so that the symbol never wraps away from the amount).
 * Missing or unreadable values format as an empty string, so that tables show a blank cell.
 */

const LOCALE = 'it-IT';

type Numeric = number | null | undefined;
type DateInput = Date | string | number | null | undefined;

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { useGrouping: 'always', ...options });
    numberFormats.set(key, format);
  }
  return format;
}

function isNumber(value: Numeric): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** 1234.5 → '1.234,5'; at most `maxDecimals` (default 2) decimals, trailing zeros dropped. */
export function formatNumber(value: Numeric, maxDecimals = 2, minDecimals = 0): string {
  if (!isNumber(value)) return '';
  return numberFormat({ minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals }).format(value);
}

/** 1234.6 → '1.235' */
export function formatInteger(value: Numeric): string {
  return formatNumber(value, 0);
}

/** A value in percentage points: 12.5 → '12,5%'. */
export function formatPercent(value: Numeric, maxDecimals = 1): string {
  const number = formatNumber(value, maxDecimals);
  return number && `${number}%`;
}

/** 1234.5 → '1.234,50 €' (no-break space before the symbol). */
export function formatPrice(value: Numeric): string {
  if (!isNumber(value)) return '';
  return numberFormat({ style: 'currency', currency: 'EUR' }).format(value);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A Date from what the server sends. Plain dates ('2026-11-21') are calendar days, read in local
 * time so that they never shift by a day; timestamps keep their instant.
 */
export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string') {
    const day = DATE_ONLY.exec(value);
    if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** '21/11/2026' */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  if (!date) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** '21/11/2026 14:05' (local time, 24-hour clock) */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return '';
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Status codes read as words: 'SUBMIT_IN_PROGRESS' → 'SUBMIT IN PROGRESS' (spec part 1 §4). */
export function statusLabel(status: string | null | undefined): string {
  return (status ?? '').replace(/_/g, ' ');
}
