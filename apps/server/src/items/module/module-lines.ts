/**
 * The line operations of a module's composition that work without an editor: the massive edit's module
 * rows (module-change.ts) and Import Module (uploads/module-import-change.ts) both change a
 * module through these, so a SKU goes in, comes back from the bin, changes class, goes to the bin or gets
 * a min value the same way, with the same change lines (docs/MASSIVE-EDIT.md, docs/IMPORTS.md).
 *
 * A draft copies the lines it starts from and never touches them: the callers stay pure functions of the
 * module's content. It keeps one line per UPC, in the order they came; new lines go at the end.
 */
import type { CompositionLine } from '@bo/shared/modules';

/** What a line change needs to know of a SKU (module-composition.repository.ts `skuScopes`). */
export interface SkuScope {
  brandCode: string;
  collection: string;
  deleted: boolean;
}

/** Why a SKU may not be in a module: unknown, of another brand or collection, or deleted (only when it would be added or brought back). */
export type SkuProblem = 'unknown' | 'otherScope' | 'deleted';

export const MODULE_LINE_TEXTS = {
  added: (upc: string, cls: string) => `Added SKU ${upc} as ${cls}`,
  restored: (upc: string, cls: string) => `SKU ${upc} back from the bin as ${cls}`,
  moved: (upc: string, from: string, to: string) => `SKU ${upc} moved from ${from} to ${to}`,
  removed: (upc: string) => `Removed SKU ${upc}`,
  minValue: (upc: string, from: number, to: number) => `Min value of SKU ${upc}: ${from} → ${to}`,
} as const;

const lineClass = (mustHave: boolean) => (mustHave ? 'MH' : 'EL');

/**
 * The first reason the SKU may not be a line of a module of that brand and collection, else null. A
 * deleted SKU may stay where it is, but not be added or brought back from the bin (`adding`).
 */
export function skuProblem(sku: SkuScope | undefined, module: { brandCode: string; collection: string }, adding: boolean): SkuProblem | null {
  if (!sku) return 'unknown';
  if (sku.brandCode !== module.brandCode || sku.collection !== module.collection) return 'otherScope';
  if (adding && sku.deleted) return 'deleted';
  return null;
}

const inBin = (line: CompositionLine) => line.moduleCompositionStatus === 'REMOVED';

/** A composition being changed line by line; `lines` and `changes` say where it stands. */
export class CompositionDraft {
  readonly #lines: CompositionLine[];
  readonly #index: Map<string, number>;
  readonly #changes: string[] = [];

  constructor(lines: readonly CompositionLine[]) {
    this.#lines = lines.map((l) => ({ ...l }));
    this.#index = new Map(this.#lines.map((l, i) => [l.upc, i]));
  }

  /** The lines as changed so far (the draft's own copies, in order). */
  get lines(): readonly CompositionLine[] {
    return this.#lines;
  }

  /** One change line per operation that changed something, in the order they ran. */
  get changes(): readonly string[] {
    return this.#changes;
  }

  /** The SKU is a line of the module and not in the bin. */
  isActive(upc: string): boolean {
    const line = this.#line(upc);
    return line !== undefined && !inBin(line);
  }

  /** The UPCs of the lines not in the bin, in order. */
  activeUpcs(): string[] {
    return this.#lines.filter((l) => !inBin(l)).map((l) => l.upc);
  }

  /**
   * The SKU in the module's active composition as MH (`mustHave`) or EL: a new line at the end, a line
   * in the bin back (as ADDED), an active one moved to that class. `minValue` null keeps the line's (a new
   * line gets 1); a number sets it (on an active line as a change of its own).
   */
  put(upc: string, mustHave: boolean, minValue: number | null = null): void {
    const current = this.#line(upc);
    if (!current) {
      this.#index.set(upc, this.#lines.length);
      this.#lines.push({ upc, mustHave, moduleCompositionStatus: 'ADDED', minValue: minValue ?? 1, previousStatus: null });
      this.#changes.push(MODULE_LINE_TEXTS.added(upc, lineClass(mustHave)));
      return;
    }
    if (inBin(current)) {
      this.#replace({ ...current, mustHave, moduleCompositionStatus: 'ADDED', previousStatus: null, minValue: minValue ?? current.minValue ?? 1 });
      this.#changes.push(MODULE_LINE_TEXTS.restored(upc, lineClass(mustHave)));
      return;
    }
    if (current.mustHave !== mustHave) {
      this.#replace({ ...current, mustHave });
      this.#changes.push(MODULE_LINE_TEXTS.moved(upc, lineClass(current.mustHave), lineClass(mustHave)));
    }
    if (minValue !== null) this.setMinValue(upc, minValue);
  }

  /** The SKU's line to the bin, remembering its status; a SKU not in the module or already in the bin is nothing to do. */
  remove(upc: string): void {
    const current = this.#line(upc);
    if (!current || inBin(current)) return;
    this.#replace({ ...current, moduleCompositionStatus: 'REMOVED', previousStatus: current.moduleCompositionStatus });
    this.#changes.push(MODULE_LINE_TEXTS.removed(upc));
  }

  /** The min value of an active line; the caller checks `isActive` first (a min value needs a line: its refusal is the caller's). */
  setMinValue(upc: string, value: number): void {
    const current = this.#line(upc);
    if (!current || inBin(current)) throw new Error(`SKU ${upc} is not an active line of the module`);
    const before = current.minValue ?? 1;
    if (before === value) return;
    this.#replace({ ...current, minValue: value });
    this.#changes.push(MODULE_LINE_TEXTS.minValue(upc, before, value));
  }

  #line(upc: string): CompositionLine | undefined {
    const i = this.#index.get(upc);
    return i === undefined ? undefined : this.#lines[i];
  }

  #replace(line: CompositionLine): void {
    this.#lines[this.#index.get(line.upc)!] = line;
  }
}
