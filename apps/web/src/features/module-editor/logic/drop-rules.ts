import type { ProductDto } from '@bo/shared/modules';
import { skuAlreadyInModule, WORKING_AREA_TEXTS } from '@bo/shared/working-area';

export type Area = 'MH' | 'EL' | 'BIN';

export const areaOf = (p: ProductDto): Area => (p.moduleCompositionStatus === 'REMOVED' ? 'BIN' : p.mustHave ? 'MH' : 'EL');

/** What a module must share with the SKU's origin for a drop between modules. */
interface ModuleIdentity {
  monthId: string;
  brand: string;
  collection: string;
}

/**
 * Cross-module rule (docs/working-area.md): a SKU may go from one module to another, or from the
 * Active SKUs panel into a module, only within the same month, brand and collection.
 */
export function sameFamilyOfModules(from: ModuleIdentity, to: ModuleIdentity): boolean {
  return from.monthId === to.monthId && from.brand === to.brand && from.collection === to.collection;
}

/** A SKU as planners read it on its tile: model, colour, size (e.g. "AU7112 001 51"). */
export const skuLabel = (p: Pick<ProductDto, 'model' | 'color' | 'size'>) => [p.model, p.color, p.size].filter(Boolean).join(' ');

/**
 * What a drop does: nothing; an error popup (a drop the rules refuse, or a no-op the user should know
 * about: `detail` names the SKU); or a new composition, perhaps with a warning.
 */
export type DropOutcome =
  | { kind: 'none' }
  | { kind: 'error'; title: string; message: string; detail?: string }
  | { kind: 'apply'; products: ProductDto[]; warning?: string };

/** How the page answers an outcome: a popup, a flash, and whether the composition changes (a history step). */
interface DropFeedback {
  products: ProductDto[] | null;
  popup: { title: string; lines: string[] } | null;
  flash: { message: string; kind: 'warning' | 'info'; title?: string } | null;
}

export function dropFeedback(outcome: DropOutcome): DropFeedback {
  switch (outcome.kind) {
    case 'none':
      return { products: null, popup: null, flash: null };
    case 'error':
      return { products: null, popup: { title: outcome.title, lines: outcome.detail ? [outcome.message, outcome.detail] : [outcome.message] }, flash: null };
    case 'apply':
      return { products: outcome.products, popup: null, flash: outcome.warning ? { message: outcome.warning, kind: 'warning', title: 'Warning' } : null };
  }
}

/** The spec's popup ('Error!', 'The sku is already present') naming the SKU; the composition does not change. */
const duplicateDrop = (sku: string): DropOutcome => ({
  kind: 'error',
  title: WORKING_AREA_TEXTS.skuAlreadyPresentTitle,
  message: WORKING_AREA_TEXTS.skuAlreadyPresent,
  detail: skuAlreadyInModule(sku),
});

const withClass = (p: ProductDto, area: 'MH' | 'EL'): ProductDto => ({ ...p, mustHave: area === 'MH', eligible: area === 'EL' });

export const restoreWarning = (previous: string, target: string) =>
  `Attention! The SKU was ${previous} before it was removed: it is restored as ${target}.`;

/** Moves a SKU inside its own module: MH ↔ EL, to the bin (REMOVED), back from the bin (ADDED). */
export function moveWithin(products: readonly ProductDto[], upc: string, to: Area): DropOutcome {
  const index = products.findIndex((p) => p.upc === upc);
  const current = products[index];
  if (!current) return { kind: 'none' };
  const from = areaOf(current);
  if (from === to) return { kind: 'none' };
  const next = products.slice();
  if (to === 'BIN') {
    next[index] = { ...current, moduleCompositionStatus: 'REMOVED', previousStatus: current.moduleCompositionStatus, previousVersion: from };
    return { kind: 'apply', products: next };
  }
  if (from === 'BIN') {
    next[index] = { ...withClass(current, to), moduleCompositionStatus: 'ADDED', previousVersion: null };
    const previous = current.previousVersion;
    return previous && previous !== to ? { kind: 'apply', products: next, warning: restoreWarning(previous, to) } : { kind: 'apply', products: next };
  }
  next[index] = withClass(current, to);
  return { kind: 'apply', products: next };
}

/** Adds a SKU from another module or from the Active SKUs panel: ADDED, MH only when dropped on MH. */
export function addFromElsewhere(
  target: readonly ProductDto[],
  product: ProductDto,
  to: Area,
  sameScope: boolean,
): DropOutcome {
  if (to === 'BIN') return { kind: 'none' };
  if (!sameScope) return { kind: 'error', title: 'Error!', message: WORKING_AREA_TEXTS.differentModule };
  const existing = target.find((p) => p.upc === product.upc);
  // Already there (MH or EL): nothing changes, a flash names the SKU.
  if (existing && existing.moduleCompositionStatus !== 'REMOVED') return duplicateDrop(skuLabel(existing));
  const added: ProductDto = {
    ...withClass(product, to),
    moduleCompositionStatus: 'ADDED',
    previousStatus: null,
    previousVersion: null,
    minValue: existing?.minValue ?? product.minValue ?? 1,
  };
  // A SKU waiting in the bin comes back in its place; a new one goes to the end.
  const products = existing ? target.map((p) => (p.upc === product.upc ? added : p)) : [...target, added];
  return { kind: 'apply', products };
}

/** Double-click: MH ↔ EL (bin SKUs stay where they are). */
export function toggleClass(products: readonly ProductDto[], upc: string): DropOutcome {
  const p = products.find((x) => x.upc === upc);
  if (!p || areaOf(p) === 'BIN') return { kind: 'none' };
  return moveWithin(products, upc, p.mustHave ? 'EL' : 'MH');
}
