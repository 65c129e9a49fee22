import { describe, expect, it } from 'vitest';
import { publishLines } from './publish-lines';

const none = { added: [], removed: [], mhToEl: [], elToMh: [], minChanged: [] };

describe('publishLines', () => {
  it('names each item-month and says what publishing it changes against the last published version and the previous month', () => {
    const lines = publishLines({
      total: 2,
      modules: [
        { moduleName: 'MRA_01', monthId: 'M06_2027', label: 'Sun one', lastPublished: { version: 3, at: null, diff: { ...none, added: ['801'] } }, previousMonth: null },
        { moduleName: 'MRA_02', monthId: 'M06_2027', label: 'MRA_02', lastPublished: null, previousMonth: { monthId: 'M05_2027', diff: { ...none, removed: ['802', '803'] } } },
      ],
      clusters: [],
    });
    expect(lines).toEqual([
      {
        key: 'MRA_01|M06_2027',
        name: 'Sun one · MRA_01 (06/2027)',
        parts: [
          { label: 'vs last published', text: '+1 SKU' },
          { label: null, text: 'No published version in a previous month' },
        ],
      },
      {
        key: 'MRA_02|M06_2027',
        name: 'MRA_02 (06/2027)',
        parts: [
          { label: null, text: 'Never published before' },
          { label: 'vs 05/2027', text: '−2 SKUs' },
        ],
      },
    ]);
  });

  it('says a cluster’s modules and the stores gaining SKUs', () => {
    const [line] = publishLines({
      total: 1,
      modules: [],
      clusters: [
        {
          clusterId: 'NRD_C1',
          monthId: 'M06_2027',
          label: 'North',
          lastPublished: { version: null, at: null, diff: { storesAdded: [], storesRemoved: [], modulesAdded: ['M1'], modulesRemoved: [], skusPerStore: [{ gained: 4, lost: 0, stores: 30 }] } },
          previousMonth: null,
        },
      ],
    });
    expect(line!.parts[0]).toEqual({ label: 'vs last published', text: '+1 module, 30 stores gain 4 SKUs' });
  });
});
