/** Plain builders for the module editor's unit tests (no I/O, no React). */
import type { ProductDto } from '@bo/shared/modules';
import type { WorkingModule } from '@bo/shared/working-area';

export function sku(upc: string, patch: Partial<ProductDto> = {}): ProductDto {
  return {
    upc,
    skuId: Number(upc.replace(/\D/g, '')) || 1,
    model: `M${upc}`,
    color: '001',
    size: '55',
    materialCode: `0M${upc}`,
    skuCode: `0M${upc}__001 55`,
    mustHave: false,
    eligible: true,
    moduleCompositionStatus: 'ADDED',
    previousStatus: null,
    previousVersion: null,
    minValue: 1,
    srp: 150,
    whsprice: 70,
    sellIn: 10,
    sellOut: 8,
    outOfStars: null,
    rankSellIn: null,
    rankSellOut: null,
    rankOutOfStars: null,
    skuTurn: null,
    doorIndex: 50,
    pty: null,
    releaseDate: '2026-01-01',
    insertDate: '2026-01-01',
    gedExpireDate: null,
    flagN: false,
    flagNewAdv: false,
    flagDisco: false,
    globalCatalogue: 'YES',
    polar: false,
    sapStatus: null,
    deleted: false,
    newIn: false,
    imageUrl: '',
    ...patch,
  };
}

export const mh = (upc: string, patch: Partial<ProductDto> = {}) => sku(upc, { mustHave: true, eligible: false, ...patch });
export const el = (upc: string, patch: Partial<ProductDto> = {}) => sku(upc, { mustHave: false, eligible: true, ...patch });
export const binned = (upc: string, was: 'MH' | 'EL') =>
  sku(upc, { mustHave: was === 'MH', eligible: was === 'EL', moduleCompositionStatus: 'REMOVED', previousStatus: 'ADDED', previousVersion: was });

export function workingModule(moduleName: string, products: ProductDto[], patch: Partial<WorkingModule> = {}): WorkingModule {
  return {
    moduleName,
    moduleLabel: moduleName,
    moduleDescription: 'Description',
    monthId: 'M01_2027',
    macroFamily: 'PILOT',
    brand: 'AUR',
    collection: 'SUN',
    starZones: ['EU'],
    status: 'WIP',
    locked: false,
    userLock: null,
    legoMonth: false,
    inOpenMonth: true,
    openMonthIdList: ['M01_2027'],
    productDtoList: products,
    door: 100,
    pty: 0,
    refreshIndex: 0,
    refreshIndexMH: 0,
    refreshIndexEL: 0,
    previousMustHave: products.filter((p) => p.mustHave && p.moduleCompositionStatus !== 'REMOVED').length,
    previousEligible: products.filter((p) => !p.mustHave && p.moduleCompositionStatus !== 'REMOVED').length,
    length: products.length,
    elLength: 0,
    initialSize: null,
    newModule: false,
    clusters: [],
    publicationDate: null,
    rpasErrors: null,
    releaseClosed: false,
    isEdited: false,
    isDescriptionEdited: false,
    newDescription: null,
    version: 1,
    specialKind: null,
    ...patch,
  };
}
