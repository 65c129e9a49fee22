import { describe, expect, it } from 'vitest';
import { addModule, byFamily, commonModules, removeModule, sameComposition, setClusterLias, toEditorModules, type EditorModule } from './composition';
import { cluster } from '../test/builders';

const m = (moduleName: string, status: 'ADDED' | 'REMOVED' = 'ADDED', macroFamily = 'PILOT'): EditorModule => ({
  moduleName,
  moduleLabel: `${moduleName} label`,
  macroFamily,
  brand: 'AUR',
  monthId: 'M01_2027',
  status: 'SUBMITTED',
  clusterCompositionStatus: status,
});

describe('cluster composition logic', () => {
  it('adds, restores from the bin, and refuses a module already present', () => {
    expect(addModule([m('A')], m('B')).outcome).toBe('added');
    expect(addModule([m('A')], m('A')).outcome).toBe('present');
    const restored = addModule([m('A', 'REMOVED')], m('A'));
    expect(restored.outcome).toBe('restored');
    expect(restored.list[0]!.clusterCompositionStatus).toBe('ADDED');
  });

  it('removes to the bin and compares compositions regardless of order', () => {
    const list = removeModule([m('A'), m('B')], 'A');
    expect(list.map((x) => x.clusterCompositionStatus)).toEqual(['REMOVED', 'ADDED']);
    expect(sameComposition([m('A'), m('B')], [m('B'), m('A')])).toBe(true);
    expect(sameComposition(list, [m('A'), m('B')])).toBe(false);
  });

  it('finds the modules common to all clusters and groups by family', () => {
    const comps = { c1: [m('A'), m('B')], c2: [m('A'), m('B', 'REMOVED')] };
    expect(commonModules(comps, ['c1', 'c2']).map((x) => x.moduleName)).toEqual(['A']);
    expect(byFamily([m('B', 'ADDED', 'ROUND'), m('A')]).map(([f]) => f)).toEqual(['PILOT', 'ROUND']);
  });

  it('changes the checked LIAs as a step, the last one too; the same set is no step', () => {
    const snap = { compositions: {}, allBin: [], lias: { c1: ['L1', 'L2'] } };
    expect(setClusterLias(snap, 'c1', [])).toEqual({ kind: 'apply', next: { ...snap, lias: { c1: [] } } });
    expect(setClusterLias(snap, 'c1', ['L2', 'L1'])).toBeNull();
  });

  it('carries each module’s SKU counts (MH + EL) from the cluster answer', () => {
    const dto = cluster('C1', ['A']);
    dto.modules[0] = { ...dto.modules[0]!, length: 3, elLength: 5 };
    expect(toEditorModules(dto)[0]!.skus).toEqual({ total: 8, mh: 3, el: 5 });
  });
});
