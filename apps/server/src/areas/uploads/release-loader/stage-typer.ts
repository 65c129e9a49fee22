/**
 * The fast way's typing of a release file (fast-stage.repository.ts stages what it makes): the file is read as
 * lines, every cell goes through the careful way's own `parseCell` (so both ways stage the same values by
 * construction), and each line becomes a row of `COPY … FROM STDIN` text (the database parses each row once, into
 * typed columns, with no pass after it). It runs in the stage worker (stage-worker.ts), a background thread, so
 * that the typing never holds the thread that answers the planners (docs/performance.md "Off the main thread").
 *
 * A module's or cluster's item fields (HEAD_COLUMNS) repeat on each of its rows: they are parsed on the
 * item's first row, kept once per item and handed back at the end (the head table's rows); a later row only has
 * to repeat them character for character. The lines' staging rows hold the key and the line columns only.
 *
 * Anything unusual — a header the fast way does not know, a cell parseCell refuses, a quoted line break, an empty
 * line, a row of another length, item fields written differently from the item's first row, a row rule broken —
 * throws NotFast: the caller then stages the file the careful way (stage-file.ts), which reports every fault with
 * its row. Row numbers are the file's lines, as the careful way numbers them.
 */
import { CODE_COLUMNS, codeFindings } from './code-columns.js';
import { FORMATS, parseCell, type CellValue, type ColumnSpec, type ReleaseFileKind } from './formats.js';
import { detectDelimiter } from './csv-delimiter.js';
import { HEAD_COLUMNS, type HeadKind } from './staging-tables.js';
import { Utf8Decoder } from './utf8-text.js';

/** Thrown while typing: the file goes the careful way. */
class NotFast extends Error {}

/** What a stage session is opened with: the kind of file and its first bytes, header line included. */
export interface StageOptions {
  kind: ReleaseFileKind;
  head: Uint8Array;
}

/**
 * What a stage session answers: the rows typed and, for module and cluster files, the head table's rows as COPY
 * text (each item's first row, then its HEAD_COLUMNS values), in the order of their first rows.
 */
export interface StageResult {
  rows: number;
  heads: Uint8Array;
  headRows: number;
}

export interface Header {
  /** The format column of each column of the file. */
  specs: ColumnSpec[];
  delimiter: ';' | ',';
  /** The bytes after the header line in the first chunk. */
  rest: Buffer;
  /** The header line's bytes, with its line break. */
  headerBytes: number;
}

/** The header line, when it is simple: known column names, each once, every required one, no quotes, no blanks. */
export function readHeader(kind: ReleaseFileKind, head: Buffer): Header | null {
  const end = head.indexOf(0x0a);
  if (end === -1) return null;
  let line = head.subarray(0, end).toString('utf8');
  if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.includes('"')) return null;
  const delimiter = detectDelimiter(head);
  const byName = new Map(FORMATS[kind].columns.map((c) => [c.name.toLowerCase(), c]));
  const specs: ColumnSpec[] = [];
  for (const cell of line.split(delimiter)) {
    const spec = byName.get(cell.trim().toLowerCase());
    if (!spec || specs.includes(spec)) return null;
    specs.push(spec);
  }
  if (FORMATS[kind].columns.some((c) => c.required && !specs.includes(c))) return null;
  return { specs, delimiter, rest: head.subarray(end + 1), headerBytes: end + 1 };
}


/**
 * The cells of one line as csv-parse reads them (`"` quotes a cell, `""` inside is a quote), or null when
 * the line is not that simple: a quote inside an unquoted cell, text after a closing quote, or a quoted cell
 * that runs past the end of the line (a quoted line break: the rows would not be the file's lines).
 */
export function splitLine(line: string, delimiter: string): string[] | null {
  if (!line.includes('"')) return line.split(delimiter);
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    if (line.charCodeAt(at) === 0x22) {
      let cell = '';
      let from = at + 1;
      for (;;) {
        const quote = line.indexOf('"', from);
        if (quote === -1) return null;
        cell += line.slice(from, quote);
        if (line.charCodeAt(quote + 1) === 0x22) {
          cell += '"';
          from = quote + 2;
          continue;
        }
        at = quote + 1;
        break;
      }
      cells.push(cell);
      if (at === line.length) return cells;
      if (line[at] !== delimiter) return null;
      at++;
    } else {
      const next = line.indexOf(delimiter, at);
      const cell = next === -1 ? line.slice(at) : line.slice(at, next);
      if (cell.includes('"')) return null;
      cells.push(cell);
      if (next === -1) return cells;
      at = next + 1;
    }
  }
}

const ESCAPES = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** A value as a field of COPY's text format (tab-separated): `\N` for null, `t`/`f`, the number, the text escaped. */
function copyField(value: CellValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPES, (c) => ESCAPED[c]!) : value;
}

/** What the fast way writes of one kind of file: which columns of the staging table, and where each comes from. */
export interface Plan {
  /** Staging columns written by the COPY (after row_no), in order. */
  columns: ColumnSpec[];
  /** For each of them: the file column it is read from, or -1 (not in the file: `constant`, an empty cell's value). */
  from: number[];
  constant: CellValue[];
  /** Module and cluster files: the head table's columns (HEAD_COLUMNS order) and their file columns (-1: absent). */
  head: { kind: HeadKind; specs: ColumnSpec[]; from: number[]; constant: CellValue[]; span: [number, number] | null } | null;
}

/** The first and last file columns of the item fields when they are side by side in the file (in any order), else null. */
function spanOf(columns: number[]): [number, number] | null {
  if (columns.includes(-1)) return null;
  const sorted = [...columns].sort((a, b) => a - b);
  return sorted.every((c, i) => c === sorted[0]! + i) ? [sorted[0]!, sorted[sorted.length - 1]!] : null;
}

export function planOf(kind: ReleaseFileKind, header: Header): Plan {
  const format = FORMATS[kind];
  const headKind: HeadKind | null = kind === 'module' || kind === 'cluster' ? kind : null;
  const headNames = headKind ? HEAD_COLUMNS[headKind] : [];
  // The key (the first two head columns) is on every staged row; the other item fields only in the head table.
  const columns = format.columns.filter((c) => !headNames.includes(c.db) || headNames.indexOf(c.db) < 2);
  if (headKind && (columns[0]!.db !== headNames[0] || columns[1]!.db !== headNames[1])) throw new Error(`the ${kind} format must start with its key`);
  const at = (spec: ColumnSpec) => header.specs.indexOf(spec);
  const absent = (spec: ColumnSpec) => {
    const parsed = parseCell(spec, null);
    if (!parsed.ok) throw new Error(`required column ${spec.name} missing from a checked header`);
    return parsed.value;
  };
  const headSpecs = headNames.map((name) => format.columns.find((c) => c.db === name)!);
  return {
    columns,
    from: columns.map(at),
    constant: columns.map((c) => (at(c) === -1 ? absent(c) : null)),
    head: headKind
      ? { kind: headKind, specs: headSpecs, from: headSpecs.map(at), constant: headSpecs.map((c) => (at(c) === -1 ? absent(c) : null)), span: spanOf(headSpecs.slice(2).map(at)) }
      : null,
  };
}


/** One item's head as first seen: its row, its raw item fields (later rows must repeat them) and their values. */
interface Head {
  row: number;
  raw: string[];
  /** The item fields' stretch of the line, when they sit side by side in the file (Plan's head.span). */
  span: string | null;
  values: CellValue[];
}

/** Column kinds whose cells repeat a few spellings: parsed once per spelling (at most MEMO_SIZE per column). */
const MEMO_KINDS = new Set(['mhel', 'enum', 'bool', 'int', 'decimal', 'date']);
const MEMO_SIZE = 1024;

/** A copy of a string that does not keep the chunk it was cut from alive (kept per item, for the whole load). */
const own = (text: string) => (text.length === 0 ? text : Buffer.from(text, 'utf8').toString('utf8'));

/**
 * Turns the file's lines (after the header) into COPY text rows, gathered in a byte buffer that is handed
 * on once per chunk read (a string per chunk would be a tree of every row's pieces, copied by each garbage
 * collection while the chunk is typed). Throws NotFast at the first thing the careful way has to look at.
 * `heads` collects each item's head (module and cluster files), in the order of their first rows.
 */
class RowTyper {
  row = 1;
  readonly heads = new Map<string, Head>();
  private out: Buffer = Buffer.allocUnsafe(1 << 21);
  private at = 0;
  /** The cells of the current line: start and end offsets in `text`, or `cells` for a line with quotes. */
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private text = '';
  private cells: string[] | null = null;
  private quoteText = '';
  private last: Head | null = null;
  /** Per staged column of a kind with few spellings (MH/EL, statuses, numbers): the values of the cells seen. */
  private readonly memos: (Map<string, CellValue> | null)[];
  private nextQuote = -1;
  private readonly cluster: { kind: number; value: number; status: number } | null;
  private readonly width: number;
  /** The file column of each code column of the kind (code-columns.ts), -1 when absent. */
  private readonly codeAt: Map<string, number>;
  private readonly codeCell = (name: string): string | null => {
    const i = this.codeAt.get(name) ?? -1;
    return i === -1 ? null : this.cell(i);
  };

  constructor(
    private readonly kind: ReleaseFileKind,
    private readonly header: Header,
    private readonly plan: Plan,
  ) {
    this.width = header.specs.length;
    this.starts = new Int32Array(this.width);
    this.ends = new Int32Array(this.width);
    this.memos = plan.columns.map((c) => (MEMO_KINDS.has(c.type.kind) ? new Map<string, CellValue>() : null));
    const at = (db: string) => plan.columns.findIndex((c) => c.db === db);
    this.cluster = kind === 'cluster' ? { kind: at('kind'), value: at('value'), status: at('module_status') } : null;
    this.codeAt = new Map((CODE_COLUMNS[kind] ?? []).map((name) => [name, header.specs.findIndex((s) => s.name === name)]));
  }

  /** The typed rows written since the last call. */
  take(): Buffer {
    const done = Buffer.from(this.out.subarray(0, this.at));
    this.at = 0;
    return done;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + bytes));
    this.out.copy(bigger, 0, 0, this.at);
    this.out = bigger;
  }

  private cell(i: number): string {
    return this.cells ? this.cells[i]! : this.text.slice(this.starts[i], this.ends[i]);
  }

  /** Splits `text[from, to)` into cells (offsets); false when the line is not that simple. */
  private split(text: string, from: number, to: number): boolean {
    this.text = text;
    this.cells = null;
    let at = from;
    for (let i = 0; i < this.width; i++) {
      let end = text.indexOf(this.header.delimiter, at);
      if (end === -1 || end > to) end = to;
      else if (i === this.width - 1) return false;
      this.starts[i] = at;
      this.ends[i] = end;
      at = end + 1;
      if (end === to && i < this.width - 1) return false;
    }
    return true;
  }

  /** Types the line `text[from, to)` (without its line break). */
  line(text: string, from: number, to: number): void {
    this.row++;
    if (to > from && text.charCodeAt(to - 1) === 0x0d) to--;
    if (to === from) throw new NotFast('an empty line');
    // The next quote at or after `from` (searched once per stretch of text, not once per line).
    if (text !== this.quoteText || (this.nextQuote !== -1 && this.nextQuote < from)) {
      this.quoteText = text;
      this.nextQuote = text.indexOf('"', from);
    }
    if (this.nextQuote !== -1 && this.nextQuote < to) {
      const cells = splitLine(text.slice(from, to), this.header.delimiter);
      if (!cells || cells.length !== this.width) throw new NotFast('a row of another shape');
      this.cells = cells;
    } else if (!this.split(text, from, to)) throw new NotFast('a row of another shape');
    // A code to repair or refuse (a spreadsheet program's lost zeros): the careful way repairs, counts and reports.
    if (codeFindings(this.kind, this.codeCell).length > 0) throw new NotFast('a code to repair or refuse');
    const { plan } = this;
    const values: CellValue[] = new Array<CellValue>(plan.columns.length);
    // One string per row, written once: it dies young, and one write costs less than one per field.
    let row = String(this.row);
    for (let i = 0; i < plan.columns.length; i++) {
      const source = plan.from[i]!;
      let value: CellValue;
      if (source === -1) value = plan.constant[i] ?? null;
      else {
        const cell = this.cell(source);
        const memo = this.memos[i];
        const known = memo?.get(cell);
        if (known !== undefined) value = known;
        else {
          const parsed = parseCell(plan.columns[i]!, cell);
          if (!parsed.ok) throw new NotFast('a cell to look at');
          value = parsed.value;
          // Kept for the whole file: copies, not slices that would keep their chunk of text alive.
          if (memo && memo.size < MEMO_SIZE) memo.set(own(cell), typeof value === 'string' ? own(value) : value);
        }
      }
      values[i] = value;
      row += `\t${copyField(value)}`;
    }
    this.room(3 * row.length + 1);
    this.at += this.out.write(row, this.at, 'utf8');
    this.out[this.at++] = 0x0a;
    if (plan.head) this.head(values);
    if (this.cluster) {
      const { kind, value, status } = this.cluster;
      if (values[kind] !== 'CLUSTER' && values[value] == null) throw new NotFast('a cluster line without value');
      if (values[kind] !== 'MODULE' && status !== -1 && values[status] != null) throw new NotFast('a module status on another line');
    }
  }

  /** Whether file column `i` of the current line is exactly `raw`. */
  private same(i: number, raw: string): boolean {
    if (this.cells) return this.cells[i] === raw;
    const start = this.starts[i]!;
    return this.ends[i]! - start === raw.length && this.text.startsWith(raw, start);
  }

  /** Each item's fields are parsed on its first row; later rows must write them the same way. */
  private head(values: CellValue[]): void {
    const head = this.plan.head!;
    // The key is the first two staged columns (HEAD_COLUMNS' first two, in the format's order).
    // The rows of an item usually follow each other: the last item is checked before the map.
    const last = this.last;
    const seen = last && last.values[0] === values[0] && last.values[1] === values[1] ? last : this.heads.get(`${String(values[0])}\u0000${String(values[1])}`);
    if (seen) {
      this.last = seen;
      if (head.span && !this.cells && seen.span !== null) {
        // The item fields side by side in the file: one comparison of the whole stretch.
        const start = this.starts[head.span[0]]!;
        if (this.ends[head.span[1]]! - start !== seen.span.length || !this.text.startsWith(seen.span, start)) throw new NotFast('item fields written differently');
        return;
      }
      for (let j = 2; j < head.from.length; j++) {
        if (head.from[j] !== -1 && !this.same(head.from[j]!, seen.raw[j]!)) throw new NotFast('item fields written differently');
      }
      return;
    }
    const raw: string[] = ['', ''];
    const headValues: CellValue[] = [own(String(values[0])), own(String(values[1]))];
    for (let j = 2; j < head.specs.length; j++) {
      if (head.from[j] === -1) {
        raw.push('');
        headValues.push(head.constant[j]!);
        continue;
      }
      const cell = this.cell(head.from[j]!);
      const parsed = parseCell(head.specs[j]!, cell);
      if (!parsed.ok) throw new NotFast('an item field to look at');
      raw.push(own(cell));
      headValues.push(typeof parsed.value === 'string' ? own(parsed.value) : parsed.value);
    }
    const span = head.span && !this.cells ? own(this.text.slice(this.starts[head.span[0]], this.ends[head.span[1]])) : null;
    const first = { row: this.row, raw, span, values: headValues };
    this.heads.set(`${String(values[0])}\u0000${String(values[1])}`, first);
    this.last = first;
  }
}

/** A whole file's typing, fed its bytes after the header line chunk by chunk (a line may straddle two chunks). */
export class FileTyper {
  private readonly typer: RowTyper;
  /** Bytes that are not UTF-8 come out as lone surrogates, which parseCell refuses: the careful way reports them. */
  private readonly decoder = new Utf8Decoder();
  private carry = '';

  /** Throws NotFast when the header is not one the fast way reads. */
  constructor(kind: ReleaseFileKind, head: Buffer) {
    const header = readHeader(kind, head);
    if (!header) throw new NotFast('a header to look at');
    this.typer = new RowTyper(kind, header, planOf(kind, header));
  }

  /** Types the lines `chunk` ends (with the start of the line the last chunk left), as COPY text. */
  feed(chunk: Buffer): Buffer {
    const text = this.carry + this.decoder.write(chunk);
    let from = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', from)) {
      this.typer.line(text, from, end);
      from = end + 1;
    }
    this.carry = text.slice(from);
    return this.typer.take();
  }

  /** Types the last line (one without a line break) and answers the rows and the heads. */
  end(): { last: Buffer; result: StageResult } {
    const carry = this.carry + this.decoder.end();
    if (carry !== '') this.typer.line(carry, 0, carry.length);
    const heads: string[] = [];
    for (const head of this.typer.heads.values()) heads.push(`${head.row}\t${head.values.map(copyField).join('\t')}\n`);
    return { last: this.typer.take(), result: { rows: this.typer.row - 1, heads: Buffer.from(heads.join(''), 'utf8'), headRows: heads.length } };
  }
}
