import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Tiles of a module card drawn by rows: an area mounts only the rows of its grid near the card
 * list's viewport (a card of 100 SKUs is ~2,300 px of tiles; the viewport shows a third of one).
 * Rows further away are the grid's top and bottom padding, so the card keeps its height.
 */

/** The card list's scroll element and its scroll and resize events (one listener for every area). */
interface TileWindow {
  element: () => HTMLElement | null;
  subscribe: (listener: () => void) => () => void;
}

export const TileWindowContext = createContext<TileWindow | null>(null);

/** The card list's TileWindow: pass the list's ref; its scroll and size changes reach the areas. */
export function useTileWindow(ref: React.RefObject<HTMLElement | null>): TileWindow {
  const [win] = useState(() => {
    const listeners = new Set<() => void>();
    return {
      listeners,
      value: {
        element: () => ref.current,
        subscribe: (listener: () => void) => {
          listeners.add(listener);
          return () => void listeners.delete(listener);
        },
      } satisfies TileWindow,
    };
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Once a frame, in an animation frame callback: the areas read their places (one layout, which
    // the frame does anyway) and set their rows; a drag's auto-scroll scrolls several times a frame.
    let frame = 0;
    const notify = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        win.listeners.forEach((l) => l());
      });
    };
    el.addEventListener('scroll', notify, { passive: true });
    const observer = new ResizeObserver(notify);
    observer.observe(el);
    return () => {
      el.removeEventListener('scroll', notify);
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [ref, win]);
  return win.value;
}

/** The grid of an area: `repeat(auto-fill, minmax(min, 1fr))` with `gap`, tiles of one height. */
export interface GridSpec {
  /** Measured-height cache key (tiles of one kind have one height). */
  kind: 'full' | 'compact';
  min: number;
  gap: number;
  /** Tile height before one is measured (px). */
  estimate: number;
}

/** Rows mounted beyond the viewport: a new range is taken when fewer than NEAR px are left, with FAR px. */
const NEAR = 200;
const FAR = 600;

const measuredHeights: Partial<Record<GridSpec['kind'], number>> = {};

interface TileRows {
  /** Index of the first product drawn and one past the last. */
  from: number;
  to: number;
  /** The grid's padding for the rows not drawn. */
  paddingTop: number;
  paddingBottom: number;
  gridRef: React.RefCallback<HTMLDivElement>;
}

interface Range {
  cols: number;
  start: number;
  end: number;
  rowHeight: number;
}

/**
 * The rows of an area's grid to draw, from the grid's place in the card list's viewport. Measured in a
 * layout effect (before the first paint: a mounted card shows its tiles in its first frame), then on
 * each scroll or resize of the list and resize of the grid. Without a TileWindow (or before the first
 * measure) nothing is drawn; `all` draws every row (small areas: no measuring at all). `include`: the index
 * of a tile that must be drawn wherever it is (the tile a key just moved here, which takes the focus back).
 */
export function useTileRows(count: number, spec: GridSpec, all: boolean, include = -1): TileRows {
  const win = useContext(TileWindowContext);
  const grid = useRef<HTMLDivElement | null>(null);
  const [range, setRange] = useState<Range | null>(null);
  const { kind, min, gap, estimate } = spec;

  const update = useCallback(() => {
    const el = grid.current;
    const scroller = win?.element();
    if (!el || !scroller) return;
    const cols = Math.max(1, Math.floor((el.clientWidth + gap) / (min + gap)));
    const rows = Math.ceil(count / cols);
    const rowHeight = (measuredHeights[kind] ?? estimate) + gap;
    const top = el.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    const height = scroller.clientHeight;
    const rowAt = (y: number) => Math.max(0, Math.min(rows, Math.floor(y / rowHeight)));
    const needStart = rowAt(-top - NEAR);
    const needEnd = Math.min(rows, rowAt(height - top + NEAR) + 1);
    setRange((prev) => {
      if (prev && prev.cols === cols && prev.rowHeight === rowHeight && prev.end <= rows && (needStart >= needEnd || (prev.start <= needStart && prev.end >= needEnd))) return prev;
      const start = rowAt(-top - FAR);
      const end = Math.min(rows, rowAt(height - top + FAR) + 1);
      if (prev && prev.cols === cols && prev.rowHeight === rowHeight && prev.start === start && prev.end === end) return prev;
      return { cols, start, end: Math.max(start, end), rowHeight };
    });
  }, [win, count, kind, min, gap, estimate]);

  useLayoutEffect(() => {
    if (!all) update();
  }, [all, update]);
  useEffect(() => {
    if (all || !win) return;
    const unsubscribe = win.subscribe(update);
    const el = grid.current;
    const observer = new ResizeObserver(update);
    if (el) observer.observe(el);
    return () => {
      unsubscribe();
      observer.disconnect();
    };
  }, [all, win, update]);
  // The first drawn tile gives the real row height (once per kind and page load), then the range is taken
  // again; read after the paint, when the layout is done anyway (a layout effect would force one more).
  useEffect(() => {
    if (all || measuredHeights[kind] !== undefined || !range || range.end <= range.start) return;
    const tile = grid.current?.firstElementChild as HTMLElement | null | undefined;
    if (tile && tile.offsetHeight > 0) {
      measuredHeights[kind] = tile.offsetHeight;
      update();
    }
  }, [all, kind, range, update]);

  const gridRef = useCallback((el: HTMLDivElement | null) => {
    grid.current = el;
  }, []);
  if (all) return { from: 0, to: count, paddingTop: 0, paddingBottom: 0, gridRef };
  if (!range) {
    // Before the first measure: the estimated height, no tile.
    const rows = Math.ceil(count / 8);
    return { from: 0, to: 0, paddingTop: 0, paddingBottom: Math.max(0, rows * (estimate + gap) - gap), gridRef };
  }
  const { cols, start, end, rowHeight } = range;
  const rows = Math.ceil(count / cols);
  let s = Math.min(start, rows);
  let e = Math.min(end, rows);
  if (include >= 0 && include < count) {
    const row = Math.floor(include / cols);
    if (e <= s) [s, e] = [row, row + 1];
    else [s, e] = [Math.min(s, row), Math.max(e, row + 1)];
  }
  if (e <= s) return { from: 0, to: 0, paddingTop: 0, paddingBottom: Math.max(0, rows * rowHeight - gap), gridRef };
  return { from: s * cols, to: Math.min(count, e * cols), paddingTop: s * rowHeight, paddingBottom: (rows - e) * rowHeight, gridRef };
}
