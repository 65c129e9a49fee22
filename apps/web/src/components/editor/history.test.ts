import { describe, expect, it } from 'vitest';
import { amend, commit, redo, rewrite, timelineOf, undo } from './history';

describe('editor history', () => {
  it('undoes and redoes steps in order', () => {
    const t = commit(commit(timelineOf('a'), 'b', 10), 'c', 10);
    expect(t).toEqual({ past: ['a', 'b'], present: 'c', future: [] });
    const back = undo(undo(t));
    expect(back).toEqual({ past: [], present: 'a', future: ['b', 'c'] });
    expect(redo(back)).toEqual({ past: ['a'], present: 'b', future: ['c'] });
  });

  it('returns the same timeline when there is nothing to undo or redo', () => {
    const t = timelineOf('a');
    expect(undo(t)).toBe(t);
    expect(redo(t)).toBe(t);
  });

  it('drops redo on a new edit, and keeps at most `limit` undo steps', () => {
    const undone = undo(commit(timelineOf(1), 2, 10));
    expect(commit(undone, 3, 10).future).toEqual([]);
    let t = timelineOf(0);
    for (let i = 1; i <= 5; i++) t = commit(t, i, 3);
    expect(t.past).toEqual([2, 3, 4]);
  });

  it('amends the present without a new step', () => {
    const t = amend(commit(timelineOf('a'), 'b', 10), 'bb');
    expect(t.past).toEqual(['a']);
    expect(t.present).toBe('bb');
    expect(undo(t).present).toBe('a');
  });

  it('rewrites every snapshot', () => {
    const t = undo(commit(commit(timelineOf(1), 2, 10), 3, 10));
    expect(rewrite(t, (n) => n * 10)).toEqual({ past: [10], present: 20, future: [30] });
  });
});
