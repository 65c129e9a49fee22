/**
 * The stale-version guard of both imports (docs/IMPORTS.md "Versions"). Every module and cluster export
 * writes each item's version (the 'Version' column: the `version` of its modules / clusters row). An
 * item-month whose file version is not its current version was changed since the file was exported: it
 * is refused, so an old workbook cannot undo the newer edits, unless the caller asked to overwrite it
 * (the job payload's `overwrite`: `${name}|${monthId}` keys, the module name or the cluster id). A file
 * without a Version column, or a group whose Version cells are empty, is not guarded (an old export, a
 * hand-made sheet).
 *
 * For the import preview: a refused item's reason is `IMPORT_VERSION_TEXTS.changedSince(...)`; build the
 * kind with `moduleImportKind(overwrite)` / `clusterImportKind(overwrite)` (empty set: nothing
 * overwritten) and its plan and edits carry the guard; `overwriteOf(payload)` reads the job's list.
 */
import { itemKeyString } from '@bo/shared/item-keys';
import type { ImportRow } from './import-file.js';

const pad = (n: number) => String(n).padStart(2, '0');
/** '28/11/2026 22:40 UTC': the server's clock, whatever its time zone. */
const utcDateTime = (at: Date) => `${pad(at.getUTCDate())}/${pad(at.getUTCMonth() + 1)}/${at.getUTCFullYear()} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;

const IMPORT_VERSION_TEXTS = {
  changedSince: (user: string | null, at: Date) => `changed by ${user ?? 'someone'} on ${utcDateTime(at)} since this file was exported`,
  badVersion: (value: string) => `'${value}' is not a version (a whole number)`,
  otherVersion: (row: number) => `another version is on file row ${row}`,
} as const;

/** The item-months the caller chose to overwrite: `${name}|${monthId}` (the key the preview lists). */
export type OverwriteKeys = ReadonlySet<string>;
export const NO_OVERWRITE: OverwriteKeys = new Set();
export const overwriteKey = (name: string, monthId: string) => itemKeyString({ itemKey: name, monthId });

/** The job payload's `overwrite?: string[]` as a set (anything else: nothing overwritten). */
export function overwriteOf(payload: unknown): OverwriteKeys {
  const list = (payload as { overwrite?: unknown } | null)?.overwrite;
  return Array.isArray(list) ? new Set(list.filter((k): k is string => typeof k === 'string')) : NO_OVERWRITE;
}

/** The version a group's file says it was exported at (null: not given, not guarded). */
export interface FileVersion {
  version: number | null;
  /** The file row that gave it. */
  fileRow: number;
}

/** Reads a row's Version cell into the group's (two different versions in one group refuse it). */
export function readVersion<K extends string>(row: ImportRow<K>, key: K, group: { fileVersion: FileVersion | null }): void {
  const value = row.read(key);
  if (!value) return;
  const version = Number(value);
  if (!/^\d{1,9}$/.test(value) || version < 1) {
    row.fail(key, IMPORT_VERSION_TEXTS.badVersion(value));
    return;
  }
  if (group.fileVersion && group.fileVersion.version !== version) row.fail(key, IMPORT_VERSION_TEXTS.otherVersion(group.fileVersion.fileRow));
  else if (!group.fileVersion) group.fileVersion = { version, fileRow: row.number };
}

/** The file version an item-month's change is checked against: none (null) when the caller overwrites it. */
export const checkedVersion = (overwrite: OverwriteKeys, itemKey: string, group: { monthId: string; fileVersion: FileVersion | null }): number | null =>
  overwrite.has(overwriteKey(itemKey, group.monthId)) ? null : (group.fileVersion?.version ?? null);

/** Why the item cannot take the file's change: changed since the file was exported. Null: it may (same version, no version, overwritten). */
export function staleRefusal(row: { version: number; updatedBy: string | null; updatedAt: Date | string }, fileVersion: number | null): string | null {
  if (fileVersion === null || fileVersion === row.version) return null;
  return IMPORT_VERSION_TEXTS.changedSince(row.updatedBy, new Date(row.updatedAt));
}
