import type { MassiveEditType } from '@bo/shared/massive-edit';
import type { DraftRow } from './draft-rows';
import { MASSIVE_EDIT_TYPES } from './fields';

/**
 * The rows not sent yet, as the tab keeps them (sessionStorage MASSIVE_EDIT_ROWS_KEY, lib/massive-edit-storage.ts):
 * `{ type, rows }`. Home's Massive Edit button clears them; a reload keeps them.
 */
interface StoredRows {
  type: MassiveEditType;
  rows: DraftRow[];
}

export function serialiseRows(type: MassiveEditType, rows: readonly DraftRow[]): string {
  return JSON.stringify({ type, rows: rows.map(({ id, values }) => ({ id, values })) });
}

/** The stored rows, or null when there are none or they cannot be read (an older shape, hand edits). */
export function parseStoredRows(raw: string | null): StoredRows | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { type?: unknown; rows?: unknown };
    if (!MASSIVE_EDIT_TYPES.includes(parsed.type as MassiveEditType) || !Array.isArray(parsed.rows)) return null;
    const rows = (parsed.rows as unknown[]).flatMap((r): DraftRow[] => {
      if (!r || typeof r !== 'object') return [];
      const { id, values } = r as { id?: unknown; values?: unknown };
      if (typeof id !== 'string' || !values || typeof values !== 'object') return [];
      const clean = Object.fromEntries(Object.entries(values as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      return [{ id, values: clean }];
    });
    return rows.length ? { type: parsed.type as MassiveEditType, rows } : null;
  } catch {
    return null;
  }
}
