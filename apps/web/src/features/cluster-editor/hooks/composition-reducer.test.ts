import { describe, expect, it } from 'vitest';
import { editorModule as m, cluster } from '../test/builders';
import { clusterChanges, compositionOutcome, compositionReducer, fromServer, HISTORY_LIMIT, type CompositionAction, type CompositionState } from './composition-reducer';

const C1 = 'C1|M01_2027';
const C2 = 'C2|M01_2027';
const run = (state: CompositionState, ...actions: CompositionAction[]) => actions.reduce(compositionReducer, state);
const statuses = (s: CompositionState, key: string) => Object.fromEntries((s.present.compositions[key] ?? []).map((x) => [x.moduleName, x.clusterCompositionStatus]));

describe('cluster composition reducer', () => {
  const loaded = () => fromServer([cluster('C1', ['A']), cluster('C2', ['A', 'B'])]);

  it('loads the clusters in order, without history or changes', () => {
    const s = loaded();
    expect(s.order).toEqual([C1, C2]);
    expect(s.past).toEqual([]);
    expect(clusterChanges(s)[C1]!.any).toBe(false);
  });

  it('undoes and redoes composition steps; a new edit drops redo', () => {
    const s1 = run(loaded(), { type: 'add', key: C1, module: m('B') }, { type: 'remove', key: C1, moduleName: 'A' });
    expect(statuses(s1, C1)).toEqual({ A: 'REMOVED', B: 'ADDED' });
    expect(clusterChanges(s1)[C1]).toMatchObject({ composition: true, any: true });

    const back = run(s1, { type: 'undo' });
    expect(statuses(back, C1)).toEqual({ A: 'ADDED', B: 'ADDED' });
    const start = run(back, { type: 'undo' });
    expect(statuses(start, C1)).toEqual({ A: 'ADDED' });
    expect(clusterChanges(start)[C1]!.any).toBe(false);
    expect(run(start, { type: 'undo' })).toBe(start);

    const again = run(start, { type: 'redo' }, { type: 'redo' });
    expect(statuses(again, C1)).toEqual({ A: 'REMOVED', B: 'ADDED' });
    expect(run(again, { type: 'redo' })).toBe(again);

    const branched = run(back, { type: 'add', key: C1, module: m('C') });
    expect(branched.future).toEqual([]);
  });

  it('reloads one cluster as saved in every history step; the other keeps its edits (live Reload)', () => {
    const edited = run(loaded(), { type: 'add', key: C1, module: m('B') }, { type: 'add', key: C2, module: m('C') });
    const saved = cluster('C1', ['A', 'Z']);
    const s = run(edited, { type: 'reloaded', cluster: saved });
    expect(statuses(s, C1)).toEqual({ A: 'ADDED', Z: 'ADDED' });
    expect(clusterChanges(s)[C1]!.any).toBe(false);
    expect(statuses(s, C2)).toEqual({ A: 'ADDED', B: 'ADDED', C: 'ADDED' });
    // Undo takes back C2's edit, never C1's old composition.
    const back = run(s, { type: 'undo' });
    expect(statuses(back, C1)).toEqual({ A: 'ADDED', Z: 'ADDED' });
    expect(statuses(back, C2)).toEqual({ A: 'ADDED', B: 'ADDED' });
  });

  it('restores a module from the bin as ADDED, in one undoable step', () => {
    const removed = run(loaded(), { type: 'remove', key: C2, moduleName: 'B' });
    const restored = run(removed, { type: 'add', key: C2, module: m('B') });
    expect(statuses(restored, C2)).toEqual({ A: 'ADDED', B: 'ADDED' });
    expect(restored.present.compositions[C2]).toHaveLength(2);
    expect(clusterChanges(restored)[C2]!.composition).toBe(false);
    expect(statuses(run(restored, { type: 'undo' }), C2)).toEqual({ A: 'ADDED', B: 'REMOVED' });
  });

  it('refuses a module already present, leaving the state as it was', () => {
    const s = loaded();
    const action: CompositionAction = { type: 'add', key: C1, module: m('A') };
    expect(compositionOutcome(s, action)).toEqual({ kind: 'error', message: 'The module is already present' });
    expect(run(s, action)).toBe(s);
  });

  it('adds to all target clusters that lack the module and takes it out of the all-clusters bin', () => {
    const binned = run(loaded(), { type: 'removeFromAll', targets: [C1, C2], module: m('A') });
    expect(statuses(binned, C1)).toEqual({ A: 'REMOVED' });
    expect(statuses(binned, C2)).toEqual({ A: 'REMOVED', B: 'ADDED' });
    expect(binned.present.allBin.map((x) => [x.moduleName, x.clusterCompositionStatus])).toEqual([['A', 'REMOVED']]);

    const back = run(binned, { type: 'addToAll', targets: [C1, C2], module: m('A') });
    expect(statuses(back, C1)).toEqual({ A: 'ADDED' });
    expect(statuses(back, C2)).toEqual({ A: 'ADDED', B: 'ADDED' });
    expect(back.present.allBin).toEqual([]);

    const b = run(loaded(), { type: 'addToAll', targets: [C1, C2], module: m('B') });
    expect(statuses(b, C1)).toEqual({ A: 'ADDED', B: 'ADDED' });
    expect(b.past).toHaveLength(1);
    expect(statuses(run(b, { type: 'undo' }), C1)).toEqual({ A: 'ADDED' });
  });

  it('refuses add-to-all when no cluster can take the module, or all hold it', () => {
    const s = loaded();
    expect(compositionOutcome(s, { type: 'addToAll', targets: [], module: m('Z', { brand: 'RAY' }) })).toEqual({ kind: 'error', message: 'No open cluster of the brand RAY can be edited' });
    const all: CompositionAction = { type: 'addToAll', targets: [C1, C2], module: m('A') };
    expect(compositionOutcome(s, all)).toMatchObject({ kind: 'error' });
    expect(run(s, all)).toBe(s);
  });

  it('keeps text fields out of the history and reports them as changes', () => {
    const s = run(loaded(), { type: 'description', key: C1, value: 'new' }, { type: 'classifications', key: C2, ids: [3] });
    expect(s.past).toEqual([]);
    expect(clusterChanges(s)[C1]).toMatchObject({ description: true, lias: false, composition: false });
    expect(clusterChanges(s)[C2]).toMatchObject({ classifications: true });
  });

  it('records taking away the last LIA as an undoable step, and gives it back on undo', () => {
    const s = loaded();
    expect(s.present.lias[C1]).toEqual(['L1']);
    const none = run(s, { type: 'lias', key: C1, codes: [] });
    expect(none.present.lias[C1]).toEqual([]);
    expect(none.past).toHaveLength(1);
    expect(clusterChanges(none)[C1]).toMatchObject({ lias: true, any: true });

    const back = run(none, { type: 'undo' });
    expect(back.present.lias[C1]).toEqual(['L1']);
    expect(clusterChanges(back)[C1]!.any).toBe(false);
    expect(run(back, { type: 'redo' }).present.lias[C1]).toEqual([]);
    // The same set again is no step.
    expect(run(s, { type: 'lias', key: C1, codes: ['L1'] })).toBe(s);
  });

  it('undoes LIA and module steps in the order they were made', () => {
    const s = run(loaded(), { type: 'remove', key: C1, moduleName: 'A' }, { type: 'lias', key: C1, codes: [] });
    const one = run(s, { type: 'undo' });
    expect(one.present.lias[C1]).toEqual(['L1']);
    expect(statuses(one, C1)).toEqual({ A: 'REMOVED' });
    expect(statuses(run(one, { type: 'undo' }), C1)).toEqual({ A: 'ADDED' });
  });

  it('refresh takes the server state but keeps the edits; load starts again', () => {
    const edited = run(loaded(), { type: 'add', key: C1, module: m('B') });
    const refreshed = run(edited, { type: 'refresh', clusters: [cluster('C1', ['A'], { status: 'SUBMITTED' })] });
    expect(refreshed.base[C1]!.status).toBe('SUBMITTED');
    expect(statuses(refreshed, C1)).toEqual({ A: 'ADDED', B: 'ADDED' });
    expect(refreshed.past).toHaveLength(1);
    const reloaded = run(edited, { type: 'load', clusters: [cluster('C1', ['A', 'B'])] });
    expect(reloaded.past).toEqual([]);
    expect(clusterChanges(reloaded)[C1]!.any).toBe(false);
  });

  it(`keeps at most ${HISTORY_LIMIT} undo steps`, () => {
    let s = loaded();
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) s = run(s, { type: 'add', key: C1, module: m(`X${i}`) });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
  });
});
