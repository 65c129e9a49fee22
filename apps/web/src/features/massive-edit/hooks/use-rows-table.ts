import type { MassiveEditType } from '@bo/shared/massive-edit';
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { monthOptions } from '@/lib/format';
import { clearMassiveEditRows, MASSIVE_EDIT_ROWS_KEY } from '@/lib/massive-edit-storage';
import { useMonths } from '../api/get-months';
import { analyseRow, type DraftRow, type RowAnalysis, summarise } from '../logic/draft-rows';
import { initialRows, type RowsState, rowsReducer } from '../logic/rows-reducer';
import { parseStoredRows, serialiseRows } from '../logic/stored-rows';

/** Rows not sent yet, as the tab kept them (a reload keeps them; home's Massive Edit button clears them). */
export function readStoredRows(): RowsState | null {
  try {
    const stored = parseStoredRows(sessionStorage.getItem(MASSIVE_EDIT_ROWS_KEY));
    return stored ? initialRows(stored.type, stored.rows) : null;
  } catch {
    return null;
  }
}

const STORE_DELAY_MS = 300;

/**
 * One table's rows (add on top, remove, edit, paste), each row's analysis (blank, rule errors) cached per
 * row object so an edit re-checks one row, and what the buttons need. With `persist` the rows are kept in
 * the tab's storage while any of them holds something.
 */
export function useRowsTable({ initial, persist }: { initial: () => RowsState; persist: boolean }) {
  const [state, dispatch] = useReducer(rowsReducer, undefined, initial);
  const months = useMonths();
  const options = useMemo(() => monthOptions(months.data ?? [], { openOnly: true }), [months.data]);
  const openMonths = useMemo(() => (months.data ? new Set(months.data.filter((m) => m.open).map((m) => m.monthId)) : null), [months.data]);

  // A new cache whenever the rules' inputs change (type, open months); rows are immutable, so a row object is its key.
  const cache = useMemo(() => ({ type: state.type, openMonths, map: new WeakMap<DraftRow, RowAnalysis>() }), [state.type, openMonths]);
  const analyse = useCallback(
    (row: DraftRow) => {
      let a = cache.map.get(row);
      if (!a) {
        a = analyseRow(cache.type, row, cache.openMonths);
        cache.map.set(row, a);
      }
      return a;
    },
    [cache],
  );
  const summary = useMemo(() => summarise(state.rows, analyse), [state.rows, analyse]);

  useEffect(() => {
    if (!persist) return;
    const timer = setTimeout(() => {
      try {
        if (summary.sent.length === 0) clearMassiveEditRows();
        else sessionStorage.setItem(MASSIVE_EDIT_ROWS_KEY, serialiseRows(state.type, state.rows));
      } catch {
        // storage full or unavailable: the rows stay on the page
      }
    }, STORE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [persist, state.type, state.rows, summary.sent.length]);

  const reset = useCallback((to: MassiveEditType) => dispatch({ type: 'reset', to }), []);

  return { state, dispatch, analyse, summary, monthOptions: options, monthsLoading: months.isPending, reset };
}
