import type { ProductDto } from '@bo/shared/modules';

export type ModuleOrder = 'name' | 'door' | 'skus' | 'custom';
export type SkuOrder = 'sellOut' | 'pty' | 'model';

export const MODULE_ORDERS: { value: ModuleOrder; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'door', label: 'Distribution (door)' },
  { value: 'skus', label: 'Number of SKUs' },
  { value: 'custom', label: 'Custom (dragged)' },
];
export const SKU_ORDERS: { value: SkuOrder; label: string }[] = [
  { value: 'sellOut', label: 'Sell out' },
  { value: 'pty', label: 'Pty' },
  { value: 'model', label: 'Model' },
];

interface Orderable {
  moduleName: string;
  macroFamily: string;
  specialKind: string | null;
  door: number;
  /** Must-have SKUs not removed. */
  mustHaveCount: number;
}

/**
 * Special macro families (best sellers, newness) first, then the chosen order (part 1 §2). The custom
 * order (the Modules panel's drag and drop, `customOrder` holds the keys) is the planner's own: it
 * comes before everything, and modules it does not know yet follow by name.
 */
export function compareModules<T extends Orderable>(order: ModuleOrder, customOrder: readonly string[] = [], keyOf: (o: T) => string = (o) => o.moduleName) {
  const rank = new Map(customOrder.map((k, i) => [k, i]));
  return (a: T, b: T): number => {
    if (order === 'custom') {
      const ra = rank.get(keyOf(a)) ?? Number.MAX_SAFE_INTEGER;
      const rb = rank.get(keyOf(b)) ?? Number.MAX_SAFE_INTEGER;
      if (ra !== rb) return ra - rb;
      return a.moduleName.localeCompare(b.moduleName);
    }
    const special = Number(b.specialKind !== null) - Number(a.specialKind !== null);
    if (special) return special;
    if (order === 'door') return b.door - a.door || a.moduleName.localeCompare(b.moduleName);
    if (order === 'skus') return b.mustHaveCount - a.mustHaveCount || a.moduleName.localeCompare(b.moduleName);
    return a.moduleName.localeCompare(b.moduleName);
  };
}

/** Best sell-out / pty first; models alphabetically (then colour and size). */
export function compareSkus(order: SkuOrder) {
  const byModel = (a: ProductDto, b: ProductDto) =>
    a.model.localeCompare(b.model) || a.color.localeCompare(b.color) || a.size.localeCompare(b.size) || a.upc.localeCompare(b.upc);
  return (a: ProductDto, b: ProductDto): number => {
    if (order === 'sellOut') return (b.sellOut ?? -1) - (a.sellOut ?? -1) || byModel(a, b);
    if (order === 'pty') return (b.pty ?? -1) - (a.pty ?? -1) || byModel(a, b);
    return byModel(a, b);
  };
}
