import { describe, expect, it } from 'vitest';
import { cluster, editorModule } from '../test/builders';
import { clusterChanges, compositionReducer, fromServer } from '../hooks/composition-reducer';
import { keyOf, toSaveBody } from './composition';
import { restoredModules } from './restore-version';

describe('restoredModules', () => {
  it('adds the version modules, bins the other added ones and keeps the bin', () => {
    const current = [editorModule('A'), editorModule('B'), editorModule('C', { clusterCompositionStatus: 'REMOVED' }), editorModule('D', { clusterCompositionStatus: 'REMOVED' })];
    const { modules, skipped } = restoredModules(current, ['A', 'C', 'NEW', 'GONE'], [editorModule('NEW', { clusterCompositionStatus: 'REMOVED' })]);
    expect(modules.map((m) => [m.moduleName, m.clusterCompositionStatus])).toEqual([
      ['A', 'ADDED'],
      ['B', 'REMOVED'],
      ['C', 'ADDED'],
      ['D', 'REMOVED'],
      ['NEW', 'ADDED'],
    ]);
    expect(modules[0]).toBe(current[0]);
    expect(skipped).toEqual(['GONE']);
  });
});

describe('the restore action of the composition reducer', () => {
  const c = cluster('C1', ['A', 'B']);
  const key = keyOf(c);
  const restore = { type: 'restore' as const, key, modules: [editorModule('A'), editorModule('B', { clusterCompositionStatus: 'REMOVED' as const })], lias: ['L1'], description: 'old text', classifications: [7], revertOf: 2 };

  it('loads the version as unsaved changes marked as a revert, and Undo takes the modules and the mark back', () => {
    const restored = compositionReducer(fromServer([c]), restore);
    expect(restored.present.revertOf).toEqual({ [key]: 2 });
    expect(clusterChanges(restored)[key]).toMatchObject({ composition: true, description: true, classifications: true, any: true });
    expect(toSaveBody(c, restored.present.compositions[key]!, restored.descriptions[key]!, restored.present.lias[key]!, restored.classifications[key]!).modules).toEqual([
      { moduleName: 'A', clusterCompositionStatus: 'ADDED' },
      { moduleName: 'B', clusterCompositionStatus: 'REMOVED' },
    ]);
    const undone = compositionReducer(restored, { type: 'undo' });
    expect(undone.present.revertOf).toBeUndefined();
    expect(clusterChanges(undone)[key]!.composition).toBe(false);
  });

  it('a reload from the server (after the save) forgets the mark', () => {
    const restored = compositionReducer(fromServer([c]), restore);
    expect(compositionReducer(restored, { type: 'load', clusters: [c] }).present.revertOf).toBeUndefined();
  });
});
