/**
 * Which worksheet of a workbook is read, and how its serial dates count (docs/IMPORTS.md, docs/RELEASE-FILES.md):
 * the first VISIBLE tab in the order the user sees the tabs — the order of the `<sheet>` elements of
 * xl/workbook.xml, `state="hidden"` / `"veryHidden"` ones skipped, chart and dialog tabs too (they hold no
 * cells) — whatever the order the zip stores the parts in. Each `<sheet r:id>` names its part through
 * xl/_rels/workbook.xml.rels. Both parts are a few KB; the readers take them from the zip entries ExcelJS's
 * streaming reader walks (xlsx-rows.ts `visibleSheetRows`), so no workbook is ever held whole.
 */

interface WorkbookSheet {
  name: string;
  /** The part, from the zip's root: `xl/worksheets/sheet2.xml`. */
  part: string;
}

interface WorkbookFacts {
  /** The first visible worksheet, or null when there is none. */
  sheet: WorkbookSheet | null;
  /** `<workbookPr date1904="1">` (Excel) or `"true"` (LibreOffice): serial 0 is 1904-01-01. */
  date1904: boolean;
}

const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(ATTRIBUTE)) out.set(m[1]!.replace(/^\w+:(?=id$)/, 'r:'), decode(m[2] ?? m[3] ?? ''));
  return out;
}

const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower]!;
  });

/** `Target` of a relationship of xl/workbook.xml, as a path from the zip's root. */
export function partOfTarget(target: string): string {
  const segments = target.startsWith('/') ? [] : ['xl'];
  for (const s of target.replace(/^\/+/, '').split('/')) {
    if (s === '..') segments.pop();
    else if (s !== '.' && s !== '') segments.push(s);
  }
  return segments.join('/');
}

const isTrue = (value: string | undefined) => value === '1' || value?.toLowerCase() === 'true';

/** What the readers need of xl/workbook.xml and xl/_rels/workbook.xml.rels (their text). */
export function workbookFacts(workbookXml: string, relsXml: string): WorkbookFacts {
  const rels = new Map<string, { target: string; type: string }>();
  for (const m of relsXml.matchAll(/<(?:\w+:)?Relationship[\s/>][^>]*>/g)) {
    const a = attributes(m[0]);
    const id = a.get('Id');
    if (id !== undefined && a.get('TargetMode') !== 'External') rels.set(id, { target: a.get('Target') ?? '', type: a.get('Type') ?? '' });
  }
  const pr = /<(?:\w+:)?workbookPr[\s/>][^>]*>/.exec(workbookXml);
  const date1904 = pr ? isTrue(attributes(pr[0]).get('date1904')) : false;
  let sheet: WorkbookSheet | null = null;
  for (const m of workbookXml.matchAll(/<(?:\w+:)?sheet[\s/>][^>]*>/g)) {
    const a = attributes(m[0]);
    const state = a.get('state');
    if (state === 'hidden' || state === 'veryHidden') continue;
    const rel = rels.get(a.get('r:id') ?? '');
    if (!rel || !/\/worksheet$/.test(rel.type)) continue;
    sheet = { name: a.get('name') ?? '', part: partOfTarget(rel.target) };
    break;
  }
  return { sheet, date1904 };
}

const DAY_MS = 86_400_000;

/**
 * An Excel serial date as `YYYY-MM-DD` (a fraction, the time of day, is dropped), or null when it names no day
 * (below 1, Excel's 1900-02-29 (60), past 9999). The 1900 system counts 1 = 1900-01-01 and, after Excel's
 * phantom 29 February, days from 1899-12-30; the 1904 system counts 0 = 1904-01-01. UTC arithmetic: the day does
 * not move with the server's time zone.
 */
export function serialDate(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial)) return null;
  const day = Math.floor(serial);
  let epoch: number;
  if (date1904) {
    if (day < 0) return null;
    epoch = Date.UTC(1904, 0, 1);
  } else {
    if (day < 1 || day === 60) return null;
    epoch = day < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  }
  const date = new Date(epoch + day * DAY_MS);
  return date.getUTCFullYear() > 9999 ? null : date.toISOString().slice(0, 10);
}
