/**
 * The one export engine serves both kinds of item. A kind says how the call checks its items and how the
 * job reads them (its file writers are in export-writers.ts, run by the export worker); the call, the job, the stored file, the
 * waiting and the audit are shared (exports.service.ts, export.job.ts).
 */
import { EXPORT_TEXTS, type ExportKind } from '@bo/shared/exports';
import { itemKeyString } from '@bo/shared/item-keys';
import type { ProductDto } from '@bo/shared/modules';
import { canExport, type ItemScope } from '@bo/shared/permissions';
import type { Db } from '../../db/client.js';
import { forbidden, notFound, ruleBroken } from '../../lib/errors.js';
import type { ServiceContext } from '../../plugins/context.js';

export type ExportStatus = 'Published' | 'Saved';

/** One item named by an export call: `name` is the module's name or the cluster's id; the rest narrows it. */
export interface ExportTarget {
  name: string;
  monthId: string;
  zones?: string[];
  customers?: string[];
  legoMonth?: boolean;
}

export const targetKey = (t: { name: string; monthId: string }) => itemKeyString({ itemKey: t.name, monthId: t.monthId });

/** A narrowing list as a set, or null when it narrows nothing (absent or empty). */
export const narrowingSet = (list: readonly string[] | undefined): ReadonlySet<string> | null => (list && list.length > 0 ? new Set(list) : null);

/** Whether an item with this LEGO state passes the target's `legoMonth`. */
export const legoMatches = (target: ExportTarget, legoMonth: boolean) => target.legoMonth === undefined || target.legoMonth === legoMonth;

/**
 * At the call: every target has a live row (404 `<kind>NotFound`) that the caller may export, by the
 * scope `scopeOf` gives the row (403).
 */
export function requireExportable<R>(ctx: ServiceContext, kind: ExportKind, targets: readonly ExportTarget[], rows: ReadonlyMap<string, R>, scopeOf: (row: R) => ItemScope): void {
  for (const t of targets) {
    const row = rows.get(targetKey(t));
    if (!row) throw notFound(`The ${kind} ${t.name} does not exist in ${t.monthId}`, `${kind}NotFound`);
    if (!canExport(ctx.user.grants, scopeOf(row))) throw forbidden(`You don't have the right to export the ${kind} ${t.name}`);
  }
}

/** The targets the status and their narrowing keep; none kept is refused (422 nothingToExport). */
export function someKept(kept: ExportTarget[]): ExportTarget[] {
  if (kept.length === 0) throw ruleBroken('nothingToExport', EXPORT_TEXTS.nothingToExport);
  return kept;
}

/** A file format the job fills unit by unit (a unit is what one target turned into). */
export interface FileWriter<T> {
  add(unit: T): void;
  /** Writes what is left to `WriterOptions.out`; the file is whole once it resolves. */
  finish(): Promise<void>;
  /** Resolves when the writer has caught up with what it was given, so memory stays flat (absent: at once). */
  drained?(): Promise<void>;
}

export interface WriterOptions {
  pdf: boolean;
  /** Where the file's bytes go, piece by piece, as they are made (the job stores them: export-chunks.ts). */
  out: (chunk: Buffer) => void;
  /** The template's columns (spreadsheets). */
  columns: readonly string[];
  /** Draws a SKU's picture: the PDF always, spreadsheets with photos. */
  picture?: (sku: ProductDto) => Buffer;
}

export interface ExportKindDef<T> {
  /** Also the unit named in texts: "module", "cluster". */
  kind: ExportKind;
  /** Targets read per round trip by the job. */
  batch: number;
  /**
   * At the call: every target exists (404) and the caller may export it (403); answers the targets that
   * the status and their narrowing keep, in the caller's order.
   */
  check(ctx: ServiceContext, targets: readonly ExportTarget[], status: ExportStatus): Promise<ExportTarget[]>;
  /** In the job: the units of the targets still exportable (gone, reopened or narrowed away ones are left out), by targetKey. */
  read(db: Db, targets: readonly ExportTarget[], status: ExportStatus, opts: { lockTtlMinutes: number }): Promise<Map<string, T>>;
  /** What names a single-item file. */
  label(unit: T): string;
  /** The unit's brand code (names a file of several items). */
  brand(unit: T): string;
  /** The SKUs whose pictures the unit shows (those already drawn in this process are handed to the export worker). */
  skus(unit: T): ProductDto[];
}
