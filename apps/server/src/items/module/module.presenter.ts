/**
 * The one answer shape of a module (`ModuleDto`): every call that answers modules builds them here, so the
 * module page's module, the save's answer, the creation's and the exports' are the same (docs/ARCHITECTURE.md).
 */
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import type { Queryable } from '../../db/client.js';
import {
  compositionLines,
  moduleFacts,
  type CompositionLineRow,
  type ModuleFacts,
  type ModuleRow,
  type ProductSkuFields,
  type ProductSkuRow,
  type ProductStatsFields,
} from './modules.repository.js';

export const imageUrl = (upc: string, view = 1) => `/data/images/${upc}/${view}.png`;

/** A SKU as a module line with the month's figures; without a line, as a SKU not in any module yet (added as EL). */
export function toProductDto(
  sku: ProductSkuFields,
  st: ProductStatsFields | undefined,
  line: CompositionLineRow = { mustHave: false, status: 'ADDED', previousStatus: null, previousMustHave: null, minValue: 1 },
): ProductDto {
  const removed = line.status === 'REMOVED';
  return {
    upc: sku.upc,
    skuId: sku.skuId,
    model: sku.model,
    color: sku.color,
    size: sku.size,
    materialCode: sku.materialCode,
    skuCode: sku.skuCode,
    mustHave: line.mustHave,
    eligible: !line.mustHave,
    moduleCompositionStatus: line.status as ProductDto['moduleCompositionStatus'],
    previousStatus: line.previousStatus,
    previousVersion: removed && line.previousMustHave !== null ? (line.previousMustHave ? 'MH' : 'EL') : null,
    minValue: line.minValue,
    srp: sku.srp,
    whsprice: sku.whsprice,
    sellIn: st?.sellIn ?? null,
    sellOut: st?.sellOut ?? null,
    outOfStars: st?.outOfStars ?? null,
    rankSellIn: st?.rankSellIn ?? null,
    rankSellOut: st?.rankSellOut ?? null,
    rankOutOfStars: st?.rankOutOfStars ?? null,
    skuTurn: st?.skuTurn ?? null,
    doorIndex: st?.doorIndex ?? null,
    pty: st?.pty ?? null,
    releaseDate: sku.releaseDate,
    insertDate: sku.insertDate,
    gedExpireDate: sku.gedExpireDate,
    flagN: sku.flagN,
    flagNewAdv: sku.flagNewAdv,
    flagDisco: sku.flagDisco,
    globalCatalogue: sku.globalCatalogue,
    polar: sku.polar,
    sapStatus: sku.sapStatus,
    deleted: sku.deleted,
    newIn: sku.newIn,
    imageUrl: imageUrl(sku.upc),
  };
}

/** A module line as a product DTO, from its SKU read with the month's figures (`PRODUCT_COLUMNS`: none when `hasStats` is false). */
const lineProduct = (sku: ProductSkuRow, line: CompositionLineRow): ProductDto => toProductDto(sku, sku.hasStats ? sku : undefined, line);

/** Each module's lines as product DTOs, by module id, in line order. */
async function compositions(db: Queryable, rows: readonly ModuleRow[]): Promise<Map<number, ProductDto[]>> {
  const out = new Map<number, ProductDto[]>();
  for (const line of await compositionLines(db, rows)) {
    const product = lineProduct(line, line);
    const list = out.get(line.moduleId);
    if (list) list.push(product);
    else out.set(line.moduleId, [product]);
  }
  return out;
}

interface DtoOptions {
  lockTtlMinutes: number;
  /** Leave the SKU lists out (lists of many modules). */
  withoutProducts?: boolean;
}

/** Builds the module DTOs the browser works with, in the order of `rows`: two statements (lines, facts) per batch. */
export async function toModuleDtos(db: Queryable, rows: readonly ModuleRow[], opts: DtoOptions): Promise<ModuleDto[]> {
  if (rows.length === 0) return [];
  const [products, facts] = await Promise.all([
    opts.withoutProducts ? Promise.resolve(new Map<number, ProductDto[]>()) : compositions(db, rows),
    moduleFacts(db, rows, opts.lockTtlMinutes),
  ]);

  return rows.map((r) => dtoOf(r, facts.get(r.id)!, products.get(r.id) ?? [], !!opts.withoutProducts));
}

/**
 * The answer of a save that read its module's facts and SKUs before it wrote (`readBeforeSave` with `answer`): the
 * row as saved and its lines as stored, ordered as `compositionLines` reads them (position, then UPC: compared here by
 * code unit, the order of a C or C.UTF-8 database; under another collation two lines at one position whose UPCs are
 * not all digits could come in the other order). The same DTO
 * `toModuleDtos` builds after the commit, without its two statements.
 */
export function savedModuleDto(saved: ModuleRow, facts: ModuleFacts, products: ReadonlyMap<string, ProductSkuRow>, lines: readonly (CompositionLineRow & { upc: string; position: number })[]): ModuleDto {
  const ordered = [...lines].sort((a, b) => a.position - b.position || (a.upc < b.upc ? -1 : a.upc > b.upc ? 1 : 0));
  const list = ordered.map((line) => lineProduct(products.get(line.upc)!, line));
  return dtoOf(saved, facts, list, false);
}

/** One module's DTO from its row, its facts and its lines as product DTOs (none: `withoutProducts`). */
function dtoOf(r: ModuleRow, f: ModuleFacts, list: ProductDto[], withoutProducts: boolean): ModuleDto {
  const active = list.filter((p) => p.moduleCompositionStatus !== 'REMOVED');
  // Without the lines, the row's stored counts (the same rule: lines not in the bin, by class).
  const mh = withoutProducts ? f.mh : active.filter((p) => p.mustHave).length;
  const el = withoutProducts ? f.el : active.filter((p) => !p.mustHave).length;
  const before = f.previous ? new Set(f.previous.upcs) : null;
  const refresh = (subset: ProductDto[]) =>
    subset.length === 0 || !before ? 0 : Math.round((100 * subset.filter((p) => !before.has(p.upc)).length) / subset.length);
  return {
    moduleName: r.moduleName,
    moduleLabel: r.moduleLabel,
    moduleDescription: r.moduleDescription,
    monthId: r.monthId,
    macroFamily: r.macroFamily,
    specialKind: f.specialKind,
    brand: r.brandCode,
    collection: r.collection,
    starZones: f.zones,
    status: r.status as ModuleDto['status'],
    locked: f.lockOwner !== null,
    userLock: f.lockOwner,
    legoMonth: f.legoMonth,
    inOpenMonth: f.inOpenMonth,
    openMonthIdList: f.openMonths.sort(),
    productDtoList: list,
    door: r.door,
    pty: active.reduce((sum, p) => sum + (p.pty ?? 0), 0),
    refreshIndex: refresh(active),
    refreshIndexMH: refresh(active.filter((p) => p.mustHave)),
    refreshIndexEL: refresh(active.filter((p) => !p.mustHave)),
    previousMustHave: f.previous?.mh ?? 0,
    previousEligible: f.previous?.el ?? 0,
    length: mh,
    elLength: el,
    initialSize: r.initialSize,
    newModule: r.newModule,
    clusters: f.clusters,
    publicationDate: r.publicationDate ? r.publicationDate.toISOString() : null,
    rpasErrors: r.rpasErrors,
    releaseClosed: f.releaseClosed,
    isEdited: false,
    isDescriptionEdited: false,
    newDescription: null,
    version: r.version,
  };
}
