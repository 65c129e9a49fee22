import type { ProductDto } from '@bo/shared/modules';
import type { Area } from './drop-rules';
import type { ModuleKeyString } from './module-key';

/** What a dragged tile carries. `moduleKey` is null for a SKU of the Active SKUs panel. */
export interface DragData {
  moduleKey: ModuleKeyString | null;
  product: ProductDto & { brand?: string; collection?: string };
  area: Area;
}

/** What a drop area is. */
export interface DropData {
  moduleKey: ModuleKeyString;
  area: Area;
}

export const dragId = (moduleKey: ModuleKeyString | null, upc: string) => `sku::${moduleKey ?? 'active'}::${upc}`;
export const dropId = (moduleKey: ModuleKeyString, area: Area) => `area::${moduleKey}::${area}`;
