/**
 * One release file into its staging table: the header checked against the format, every cell parsed
 * (types, required, enums, lengths), the item fields of a module or cluster compared with its first
 * row, the rows written in chunks of CHUNK_CELLS cells (one statement in flight while the next chunk is read).
 * Every row is staged, a refused cell as null, so that the reference checks that follow see every key.
 */
import type { Queryable } from '../../../db/client.js';
import { CELL_TEXT_REASONS, CHUNK_CELLS, FORMATS, parseCell, type CellValue, type ColumnSpec, type LoaderFileKind } from './formats.js';
import { codeFindings, repairLabel } from './code-columns.js';
import { NotUtf8, readRecords, ReadError, type FileSource } from './read-records.js';
import { insertHeads, insertStaged } from './release-loader.repository.js';
import { HEAD_COLUMNS, type HeadKind } from './staging-tables.js';

/** Where a file's refusals go: `column` is the header name, or '-' for the row as a whole. */
export type Report = (row: number, column: string, reason: string) => void;

export interface StageResult {
  rows: number;
  /** The file could not be read through (unreadable, bad header): its staged rows are incomplete. */
  broken: boolean;
  /** Codes repaired where the row proved them (code-columns.ts), counted by `repairLabel`. */
  repairs: Record<string, number>;
}

/** Chunks of column arrays, written one statement at a time behind the reader (the careful way's rows and heads). */
export class ChunkWriter {
  private columns: CellValue[][];
  private count = 0;
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private failed = false;

  constructor(
    private readonly width: number,
    private readonly write: (columns: CellValue[][]) => Promise<unknown>,
  ) {
    this.columns = Array.from({ length: width }, () => []);
  }

  async add(values: CellValue[]): Promise<void> {
    for (let i = 0; i < this.width; i++) this.columns[i]!.push(values[i] ?? null);
    if (++this.count * this.width >= CHUNK_CELLS) await this.flush();
  }

  async flush(): Promise<void> {
    await this.pending;
    if (this.failed) throw this.failure;
    if (this.count === 0) return;
    const columns = this.columns;
    this.columns = Array.from({ length: this.width }, () => []);
    this.count = 0;
    // Caught here and rethrown on the next call: a rejection must not go unhandled while the reader works.
    this.pending = this.write(columns).then(
      () => undefined,
      (error: unknown) => {
        this.failed = true;
        this.failure = error;
      },
    );
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.pending;
    if (this.failed) throw this.failure;
  }
}

interface HeadSeen {
  row: number;
  values: CellValue[];
  /** Which of the values were refused on that row (already reported: later rows are not compared with them). */
  refused?: boolean[];
}

const HEAD_KEY_LABELS: Record<HeadKind, string> = { module: 'module', cluster: 'cluster' };

export async function stageFile(db: Queryable, kind: LoaderFileKind, source: FileSource, report: Report, onBytes: (bytes: number) => void): Promise<StageResult> {
  const format = FORMATS[kind];
  const specs = format.columns;
  const writer = new ChunkWriter(specs.length + 1, (columns) => insertStaged(db, kind, columns));
  const headKind: HeadKind | null = kind === 'module' || kind === 'cluster' ? kind : null;
  const headIndexes = headKind ? HEAD_COLUMNS[headKind].map((name) => specs.findIndex((c) => c.db === name)) : [];
  const headWriter = headKind ? new ChunkWriter(headIndexes.length + 1, (columns) => insertHeads(db, headKind, columns)) : null;
  const heads = new Map<string, HeadSeen>();
  /** Stars customers' and segmentations' fields, which every row of one of them repeats. */
  const repeated = new Map<string, HeadSeen>();

  let map: (ColumnSpec | null)[] | null = null;
  let rows = 0;
  const repairs: Record<string, number> = {};
  const specAt = new Map(specs.map((s, i) => [s.name, i]));
  /** The format column of each column of the file (-1: none). */
  let positions: number[] = [];
  /**
   * Cells refused as not UTF-8, held back until the file shows it is UTF-8 (then reported) or ends as a file
   * that is not (NotUtf8: one line instead of one per cell). Row and column only: a few numbers per cell.
   */
  let heldBack: { rows: number[]; columns: string[] } | null = { rows: [], columns: [] };
  const reportCell: Report = (row, column, reason) => {
    if (heldBack && reason === CELL_TEXT_REASONS.notUtf8) {
      heldBack.rows.push(row);
      heldBack.columns.push(column);
    } else report(row, column, reason);
  };
  const releaseHeldBack = () => {
    if (!heldBack) return;
    heldBack.rows.forEach((row, i) => report(row, heldBack!.columns[i]!, CELL_TEXT_REASONS.notUtf8));
    heldBack = null;
  };
  const records = readRecords(db, source, onBytes, (row, column, reason) => report(row, map?.[column]?.name ?? `column ${column + 1}`, reason), {
    dateColumn: (column) => map?.[column]?.type.kind === 'date',
    isUtf8: releaseHeldBack,
  });
  try {
    for await (const record of records) {
      if (map === null) {
        map = headerMap(record.cells, specs, report, record.row);
        if (map === null) return { rows, broken: true, repairs };
        positions = map.map((spec) => (spec ? specs.indexOf(spec) : -1));
        continue;
      }
      rows++;
      const values: CellValue[] = new Array<CellValue>(specs.length + 1).fill(null);
      values[0] = record.row;
      const raw: (string | null)[] = new Array<string | null>(specs.length).fill(null);
      for (let i = 0; i < record.cells.length; i++) {
        const position = positions[i] ?? -1;
        const cell = record.cells[i] ?? null;
        if (position >= 0) raw[position] = cell;
        else if (cell !== null && cell.trim() !== '') report(record.row, `column ${i + 1}`, 'a value in a column without a header');
      }
      const bad = new Set<number>();
      for (const finding of codeFindings(kind, (name) => raw[specAt.get(name)!] ?? null)) {
        const at = specAt.get(finding.column)!;
        if ('repair' in finding) {
          raw[at] = finding.repair;
          const label = repairLabel(finding.column, finding.proof);
          repairs[label] = (repairs[label] ?? 0) + 1;
        } else {
          bad.add(at);
          report(record.row, finding.column, finding.reason);
        }
      }
      for (let i = 0; i < specs.length; i++) {
        if (bad.has(i)) continue;
        const parsed = parseCell(specs[i]!, raw[i] ?? null);
        if (parsed.ok) values[i + 1] = parsed.value;
        else {
          bad.add(i);
          reportCell(record.row, specs[i]!.name, parsed.reason);
        }
      }
      rowRules(kind, specs, values, bad, record.row, report);
      if (headKind && headWriter) {
        const head = headIndexes.map((i) => values[i + 1] ?? null);
        const key = `${String(head[0])}\u0000${String(head[1])}`;
        const seen = heads.get(key);
        if (!seen) {
          heads.set(key, { row: record.row, values: head, refused: headIndexes.map((i) => bad.has(i)) });
          await headWriter.add([record.row, ...head]);
        } else {
          for (let j = 2; j < head.length; j++) {
            const column = headIndexes[j]!;
            if (bad.has(column) || seen.refused?.[j] || head[j] === seen.values[j]) continue;
            report(
              record.row,
              specs[column]!.name,
              `'${show(head[j])}' differs from '${show(seen.values[j])}' on row ${seen.row}, the first row of ${HEAD_KEY_LABELS[headKind]} ${String(head[0])} (${String(head[1])})`,
            );
          }
        }
      }
      if (kind === 'segment') sameEverywhere(repeated, specs, values, record.row, report);
      await writer.add(values);
    }
    releaseHeldBack();
    if (map === null) report(1, '-', 'the file is empty: a header row is needed');
    await writer.finish();
    await headWriter?.finish();
    return { rows, broken: map === null, repairs };
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (error instanceof NotUtf8) {
      // One line for the file, at the first cell that showed it.
      report(heldBack?.rows[0] ?? error.row, heldBack?.columns[0] ?? '-', error.message);
      heldBack = null;
    } else {
      releaseHeldBack();
      report(error.row, '-', error.message);
    }
    await writer.finish();
    await headWriter?.finish();
    return { rows, broken: true, repairs };
  }
}

const show = (value: CellValue | undefined) => (value === null || value === undefined ? "" : String(value));

/** The header's columns, matched case-insensitively; null (and reports) when a column is unknown, repeated or missing. */
function headerMap(cells: (string | null)[], specs: readonly ColumnSpec[], report: Report, row: number): (ColumnSpec | null)[] | null {
  const byName = new Map(specs.map((s) => [s.name.toLowerCase(), s]));
  const map: (ColumnSpec | null)[] = [];
  const seen = new Set<ColumnSpec>();
  let ok = true;
  cells.forEach((cell, i) => {
    const name = (cell ?? '').trim();
    if (name === '') {
      map.push(null);
      return;
    }
    const spec = byName.get(name.toLowerCase()) ?? null;
    if (!spec) {
      report(row, name, 'unknown column');
      ok = false;
    } else if (seen.has(spec)) {
      report(row, name, `column repeated (column ${i + 1})`);
      ok = false;
    } else seen.add(spec);
    map.push(spec);
  });
  for (const spec of specs) {
    if (spec.required && !seen.has(spec)) {
      report(row, spec.name, 'missing column');
      ok = false;
    }
  }
  return ok ? map : null;
}

/** Rules between the cells of one row. */
function rowRules(kind: LoaderFileKind, specs: readonly ColumnSpec[], values: CellValue[], bad: Set<number>, row: number, report: Report): void {
  if (kind !== 'cluster') return;
  const at = (db: string) => specs.findIndex((c) => c.db === db);
  const lineKind = values[at('kind') + 1];
  const valueIndex = at('value');
  if (lineKind && lineKind !== 'CLUSTER' && values[valueIndex + 1] === null && !bad.has(valueIndex)) {
    report(row, 'value', `required for kind ${String(lineKind)}`);
  }
  const statusIndex = at('module_status');
  if (lineKind && lineKind !== 'MODULE' && values[statusIndex + 1] !== null) report(row, 'moduleStatus', 'only MODULE rows have a module status');
}

const CUSTOMER_FIELDS = ['customer_name', 'customer_country', 'customer_planning_channel', 'distribution_channel'];

/** A stars customer's fields and a segmentation's label are the same on each of their rows. */
function sameEverywhere(seen: Map<string, HeadSeen>, specs: readonly ColumnSpec[], values: CellValue[], row: number, report: Report): void {
  const at = (db: string) => specs.findIndex((c) => c.db === db) + 1;
  const groups: [string, string, string[]][] = [
    ['stars customer', 'stars_customer', CUSTOMER_FIELDS],
    ['segmentation', 'customer_segmentation', ['segmentation_label']],
  ];
  for (const [label, keyColumn, fields] of groups) {
    const key = values[at(keyColumn)];
    if (key === null) continue;
    const mapKey = `${keyColumn}\u0000${String(key)}`;
    const current = fields.map((f) => values[at(f)] ?? null);
    const first = seen.get(mapKey);
    if (!first) {
      seen.set(mapKey, { row, values: current });
      continue;
    }
    fields.forEach((f, j) => {
      if (current[j] === null || first.values[j] === null || current[j] === first.values[j]) return;
      report(row, specs[at(f) - 1]!.name, `'${show(current[j]!)}' differs from '${show(first.values[j]!)}' on row ${first.row}, the first row of ${label} ${String(key)}`);
    });
  }
}
