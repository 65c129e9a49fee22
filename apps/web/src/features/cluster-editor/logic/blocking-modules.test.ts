import { describe, expect, it } from 'vitest';
import type { BlockingModule, ClusterBlocking } from '@bo/shared/clusters';
import { modulesToPublish } from './blocking-modules';

const mod = (moduleName: string, over: Partial<BlockingModule> = {}): BlockingModule => ({
  moduleName,
  moduleLabel: `${moduleName} label`,
  monthId: 'M01_2027',
  status: 'WIP',
  canPublish: true,
  publishable: true,
  userLock: null,
  reasons: [],
  ...over,
});
const waiting = (clusterId: string, modules: BlockingModule[]): ClusterBlocking => ({
  clusterId,
  monthId: 'M01_2027',
  clusterLabel: `${clusterId} label`,
  reasons: modules.map((m) => ({ code: 'moduleInWip' as const, message: `The module ${m.moduleName} is in work in progress`, moduleName: m.moduleName })),
  modules,
});

describe('modulesToPublish', () => {
  it('offers each publishable module of the caller once, however many clusters it blocks', () => {
    const list = modulesToPublish([waiting('C1', [mod('A'), mod('B')]), waiting('C2', [mod('A')])], 'me');
    expect(list.map((m) => m.moduleName)).toEqual(['A', 'B']);
  });

  it('leaves out a module the caller may not publish, one that would not pass, and one locked by someone else (not by the caller)', () => {
    const list = modulesToPublish(
      [
        waiting('C1', [
          mod('NOT_MINE', { canPublish: false }),
          mod('SAP', { publishable: false, reasons: [{ code: 'skuSapDisabled', message: 'SKU 1 is disabled in SAP', upc: '1' }] }),
          mod('THEIRS', { userLock: 'someone' }),
          mod('MINE', { userLock: 'ME' }),
        ]),
      ],
      'me',
    );
    expect(list.map((m) => m.moduleName)).toEqual(['MINE']);
  });
});
