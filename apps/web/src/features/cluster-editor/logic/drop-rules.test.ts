import { describe, expect, it } from 'vitest';
import { editorModule } from '../test/builders';
import { dropIntent, type DragSource } from './drop-rules';

const from = (source: DragSource, key?: string) => ({ source, key, module: editorModule('A') });

describe('cluster drop rules', () => {
  it('adds to a cluster from anywhere but itself', () => {
    expect(dropIntent(from('search'), { zone: 'cluster', key: 'C1' })).toEqual({ kind: 'add', key: 'C1' });
    expect(dropIntent(from('bin', 'C1'), { zone: 'cluster', key: 'C1' })).toEqual({ kind: 'add', key: 'C1' });
    expect(dropIntent(from('cluster', 'C2'), { zone: 'cluster', key: 'C1' })).toEqual({ kind: 'add', key: 'C1' });
    expect(dropIntent(from('cluster', 'C1'), { zone: 'cluster', key: 'C1' })).toBeNull();
  });

  it("bins a module of that cluster or of the 'all clusters' area only", () => {
    expect(dropIntent(from('cluster', 'C1'), { zone: 'bin', key: 'C1' })).toEqual({ kind: 'remove', key: 'C1' });
    expect(dropIntent(from('all'), { zone: 'bin', key: 'C1' })).toEqual({ kind: 'remove', key: 'C1' });
    expect(dropIntent(from('cluster', 'C2'), { zone: 'bin', key: 'C1' })).toBeNull();
    expect(dropIntent(from('search'), { zone: 'bin', key: 'C1' })).toBeNull();
  });

  it("adds to and removes from all clusters through the 'all clusters' area", () => {
    expect(dropIntent(from('search'), { zone: 'all' })).toEqual({ kind: 'addToAll' });
    expect(dropIntent(from('all'), { zone: 'all' })).toBeNull();
    expect(dropIntent(from('all'), { zone: 'allBin' })).toEqual({ kind: 'removeFromAll' });
    expect(dropIntent(from('cluster', 'C1'), { zone: 'allBin' })).toBeNull();
  });
});
