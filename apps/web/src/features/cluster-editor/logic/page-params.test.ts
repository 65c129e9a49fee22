import { describe, expect, it } from 'vitest';
import { clusterKeysFromSearch } from './page-params';

describe('cluster page URL', () => {
  it('reads one cluster, a list, or both, without repeats', () => {
    expect(clusterKeysFromSearch(new URLSearchParams('clusterId=C1&monthId=M01_2027'))).toEqual([{ clusterId: 'C1', monthId: 'M01_2027' }]);
    expect(clusterKeysFromSearch(new URLSearchParams('clusterId=C1&monthId=M01_2027&clusters=C1|M01_2027,C2|M02_2027,bad'))).toEqual([
      { clusterId: 'C1', monthId: 'M01_2027' },
      { clusterId: 'C2', monthId: 'M02_2027' },
    ]);
    expect(clusterKeysFromSearch(new URLSearchParams(''))).toEqual([]);
  });

  it('opens at most 30 clusters', () => {
    const list = Array.from({ length: 40 }, (_, i) => `C${i}|M01_2027`).join(',');
    expect(clusterKeysFromSearch(new URLSearchParams({ clusters: list }))).toHaveLength(30);
  });
});
