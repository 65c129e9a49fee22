import type { MassiveEditType } from '@bo/shared/massive-edit';
import { type DraftRow, emptyRow } from './draft-rows';
import { FIELDS } from './fields';
import { applyPaste, type PasteResult } from './paste';

/** The table of one assortment type: its rows and the counter that names new rows. */
export interface RowsState {
  type: MassiveEditType;
  rows: DraftRow[];
  seq: number;
  /** What the last paste did (the page tells the planner when rows or columns were left out). */
  lastPaste: Omit<PasteResult, 'rows'> | null;
}

export type RowsAction =
  | { type: 'add' }
  | { type: 'remove'; id: string }
  | { type: 'set'; id: string; key: string; value: string }
  | { type: 'paste'; id: string; key: string; table: string[][] }
  /** Another type, or a table emptied after a save: one blank row. */
  | { type: 'reset'; to: MassiveEditType }
  | { type: 'load'; to: MassiveEditType; rows: DraftRow[] }
  /** The planner left the row: its errors show from now on. */
  | { type: 'touch'; id: string }
  /** A save button was pressed: every row's errors show. */
  | { type: 'touchAll' };

/** The row as typed in or left: no longer pristine. */
const touched = (row: DraftRow): DraftRow => {
  if (!row.pristine) return row;
  const { pristine: _, ...rest } = row;
  return rest;
};

const idOf = (seq: number) => `r${seq}`;

export function initialRows(type: MassiveEditType, rows?: readonly DraftRow[]): RowsState {
  if (rows && rows.length > 0) {
    // Keep the rows' own ids (storage, prefill) and count on from past them.
    const seq = rows.reduce((max, r) => Math.max(max, Number(/^r(\d+)$/.exec(r.id)?.[1] ?? 0)), 0) + 1;
    return { type, rows: [...rows], seq, lastPaste: null };
  }
  return { type, rows: [emptyRow(type, idOf(0))], seq: 1, lastPaste: null };
}

/** Add-row puts a new row on top; removing the last remaining row leaves it empty (part 2 §2). */
export function rowsReducer(state: RowsState, action: RowsAction): RowsState {
  switch (action.type) {
    case 'add':
      return { ...state, rows: [emptyRow(state.type, idOf(state.seq)), ...state.rows], seq: state.seq + 1, lastPaste: null };
    case 'remove': {
      if (!state.rows.some((r) => r.id === action.id)) return state;
      if (state.rows.length === 1) return { ...state, rows: [emptyRow(state.type, idOf(state.seq))], seq: state.seq + 1, lastPaste: null };
      return { ...state, rows: state.rows.filter((r) => r.id !== action.id), lastPaste: null };
    }
    case 'set': {
      const index = state.rows.findIndex((r) => r.id === action.id);
      const row = state.rows[index];
      if (!row || row.values[action.key] === action.value) return state;
      const rows = [...state.rows];
      rows[index] = touched({ ...row, values: { ...row.values, [action.key]: action.value } });
      return { ...state, rows };
    }
    case 'paste': {
      const startRow = state.rows.findIndex((r) => r.id === action.id);
      const startField = FIELDS[state.type].findIndex((f) => f.key === action.key);
      if (startRow < 0 || startField < 0) return state;
      let seq = state.seq;
      const { rows, ...lastPaste } = applyPaste(state.type, state.rows, startRow, startField, action.table, () => idOf(seq++));
      // Pasted rows are rows the planner filled: their errors show.
      return { ...state, rows: rows.map((r, i) => (r === state.rows[i] ? r : touched(r))), seq, lastPaste };
    }
    case 'reset':
      return { type: action.to, rows: [emptyRow(action.to, idOf(state.seq))], seq: state.seq + 1, lastPaste: null };
    case 'load':
      return initialRows(action.to, action.rows);
    case 'touch': {
      const index = state.rows.findIndex((r) => r.id === action.id);
      const row = state.rows[index];
      if (!row?.pristine) return state;
      const rows = [...state.rows];
      rows[index] = touched(row);
      return { ...state, rows };
    }
    case 'touchAll':
      return state.rows.some((r) => r.pristine) ? { ...state, rows: state.rows.map(touched) } : state;
  }
}
