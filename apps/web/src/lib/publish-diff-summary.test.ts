import { describe, expect, it } from 'vitest';
import type { ClusterDiff, ModuleDiff } from '@bo/shared/item-versions';
import { clusterDiffSummary, moduleDiffSummary, publishDiffLine, storeGainLines } from './publish-diff-summary';

const noModuleChange: ModuleDiff = { added: [], removed: [], mhToEl: [], elToMh: [], minChanged: [] };
const noClusterChange: ClusterDiff = { storesAdded: [], storesRemoved: [], modulesAdded: [], modulesRemoved: [], skusPerStore: [] };

describe('publish diff texts', () => {
  it('counts a module diff; the removed count alone carries the unit, as the history says it', () => {
    expect(moduleDiffSummary({ added: ['a', 'b'], removed: ['c'], mhToEl: [], elToMh: ['d'], minChanged: [] })).toBe('+2 SKUs, −1, 1 EL→MH');
    expect(moduleDiffSummary({ ...noModuleChange, removed: ['c'] })).toBe('−1 SKU');
    expect(moduleDiffSummary({ ...noModuleChange, minChanged: [{ upc: 'a', from: 1, to: 2 }] })).toBe('1 min value');
    expect(moduleDiffSummary(noModuleChange)).toBe('no change');
  });

  it('says how many stores gain or lose how many SKUs, biggest change first, without the unchanged group', () => {
    const diff: ClusterDiff = {
      ...noClusterChange,
      skusPerStore: [
        { gained: 0, lost: 0, stores: 5 },
        { gained: 3, lost: 0, stores: 12 },
        { gained: 2, lost: 1, stores: 4 },
        { gained: 0, lost: 5, stores: 1 },
      ],
    };
    expect(storeGainLines(diff)).toEqual(['1 store loses 5 SKUs', '12 stores gain 3 SKUs', '4 stores gain 2 SKUs and lose 1']);
  });

  it('puts a cluster diff on one line: modules, stores, then the stores’ SKUs', () => {
    const diff: ClusterDiff = { storesAdded: ['S3'], storesRemoved: ['S1', 'S2'], modulesAdded: ['M1'], modulesRemoved: [], skusPerStore: [{ gained: 3, lost: 0, stores: 12 }] };
    expect(clusterDiffSummary(diff)).toBe('+1 module, +1 store, −2 stores, 12 stores gain 3 SKUs');
    expect(clusterDiffSummary(noClusterChange)).toBe('no change');
  });

  it('says an item’s publish diff on one line: against the last published version, then the previous month', () => {
    const added = { ...noModuleChange, added: ['a'] };
    expect(publishDiffLine({ lastPublished: { diff: added }, previousMonth: { monthId: 'M05_2027', diff: noModuleChange } }, moduleDiffSummary)).toBe(
      'vs last published: +1 SKU · vs 05/2027: no change',
    );
    expect(publishDiffLine({ lastPublished: null, previousMonth: null }, moduleDiffSummary)).toBe('Never published before · No published version in a previous month');
  });
});
