/** Plain builders for the cluster editor's unit tests (no I/O, no React). */
import type { ClusterDto } from '@bo/shared/clusters';
import type { Grant } from '@bo/shared/grants';
import type { EditorModule } from '../logic/composition';

export function editorModule(moduleName: string, patch: Partial<EditorModule> = {}): EditorModule {
  return { moduleName, moduleLabel: `${moduleName} label`, macroFamily: 'PILOT', brand: 'AUR', monthId: 'M01_2027', status: 'SUBMITTED', clusterCompositionStatus: 'ADDED', ...patch };
}

/** A cluster of brand AUR in zone EU, WIP, unlocked, in an open month; `modules` are ADDED. */
export function cluster(clusterId: string, modules: string[] = [], patch: Partial<ClusterDto> = {}): ClusterDto {
  return {
    clusterId,
    clusterLabel: `${clusterId} label`,
    clusterDescription: '',
    monthId: 'M01_2027',
    brandCode: 'AUR',
    collection: 'SUN',
    country: ['IT'],
    status: 'WIP',
    locked: false,
    userLock: null,
    legoMonth: false,
    stores: [],
    lias: [{ liaCode: 'L1', planningChannelId: 'PC', isChecked: true }],
    classifications: [],
    modules: modules.map((moduleName) => ({ ...editorModule(moduleName), status: 'SUBMITTED' as const, clusterId, length: 0, elLength: 0, productDtoList: [] })),
    rangeFacing: null,
    starZones: ['EU'],
    publicationDate: null,
    rpasErrors: null,
    months: ['M01_2027'],
    door: 1,
    totalSku: 0,
    releaseClosed: false,
    inOpenMonth: true,
    version: 1,
    ...patch,
  };
}

export function grant(types: Grant['types'], patch: Partial<Grant> = {}): Grant {
  return { role: 'USER', types, rules: [], brands: ['AUR'], starsZones: ['EU'], ...patch };
}
