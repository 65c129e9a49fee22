/**
 * Undo/redo history for an editor's working copy, shared by the module and cluster editors. Pure: the
 * reducers keep `past`, `present` and `future` in their state and step them with these functions.
 *
 * Snapshots are whole values; callers share unchanged parts between them (structural sharing), so a
 * step costs what the edit changed. A new edit drops the redo steps; at most `limit` undo steps are kept.
 */
export interface Timeline<T> {
  past: readonly T[];
  present: T;
  future: readonly T[];
}

export const timelineOf = <T>(present: T): Timeline<T> => ({ past: [], present, future: [] });

/** A new undoable step: the present goes to the past, redo is no longer possible. */
export function commit<T>(t: Timeline<T>, next: T, limit: number): Timeline<T> {
  return { past: [...t.past, t.present].slice(-limit), present: next, future: [] };
}

/** Changes the present within the current step (e.g. typing one text): no new undo step, redo dropped. */
export function amend<T>(t: Timeline<T>, next: T): Timeline<T> {
  return { past: t.past, present: next, future: [] };
}

/** One step back; the same timeline when there is nothing to undo. */
export function undo<T>(t: Timeline<T>): Timeline<T> {
  const previous = t.past.at(-1);
  if (previous === undefined) return t;
  return { past: t.past.slice(0, -1), present: previous, future: [t.present, ...t.future] };
}

/** One step forward; the same timeline when there is nothing to redo. */
export function redo<T>(t: Timeline<T>): Timeline<T> {
  if (t.future.length === 0) return t;
  const [next, ...rest] = t.future as [T, ...T[]];
  return { past: [...t.past, t.present], present: next, future: rest };
}

/**
 * Rewrites every snapshot, present, past and future alike: what the server says (a load, a save) is
 * not an undoable step, so undo never goes back past it.
 */
export function rewrite<T>(t: Timeline<T>, fn: (snapshot: T) => T): Timeline<T> {
  return { past: t.past.map(fn), present: fn(t.present), future: t.future.map(fn) };
}

/** Whether there is a step to undo and one to redo (the editors' Undo / Redo buttons). */
export const undoRedo = (t: { past: readonly unknown[]; future: readonly unknown[] }) => ({ canUndo: t.past.length > 0, canRedo: t.future.length > 0 });
