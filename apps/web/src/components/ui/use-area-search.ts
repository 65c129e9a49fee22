import { useState } from 'react';
import type { AreaFilterState } from './area-filters';

/**
 * The search state of a work area (Pending, Disco/Removed): the view, the filters being chosen, the filters
 * searched (null before the first Search), the page and `run` (changes on every Search, so pressing it again
 * reloads). Switching the view resets filters and results; Search goes back to the first page. `onReset` runs
 * on both (the area's own result state, e.g. its checked rows).
 */
export function useAreaSearch<V extends string, F>(firstView: V, empty: F, onReset?: () => void) {
  const [view, setView] = useState<V>(firstView);
  const [filters, setFilters] = useState<F>(empty);
  const [searched, setSearched] = useState<F | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const [run, setRun] = useState(0);
  const changeView = (next: V) => {
    if (next === view) return;
    setView(next);
    setFilters(empty);
    setSearched(null);
    setPageIndex(0);
    onReset?.();
  };
  const runSearch = () => {
    setSearched(filters);
    setPageIndex(0);
    setRun((n) => n + 1);
    onReset?.();
  };
  /** What the area's sidebar (AreaFilters) needs, with the options query of the view. */
  const sidebar = <O>(options: { data?: O; isLoading: boolean }): AreaFilterState<V, F, O> => ({
    view,
    filters,
    options: options.data,
    loading: options.isLoading,
    onViewChange: changeView,
    onChange: setFilters,
    onSearch: runSearch,
  });
  return { view, filters, searched, pageIndex, setPageIndex, run, sidebar };
}
