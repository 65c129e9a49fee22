import type { Announcements, ScreenReaderInstructions } from '@dnd-kit/core';
import type { DragData, DropData } from './dnd-ids';
import type { Area } from './drop-rules';
import type { ModuleKeyString } from './module-key';

/** The areas as the page names them (sku-area.tsx titles). */
const AREA_NAMES: Record<Area, string> = { MH: 'Must Have', EL: 'Eligible', BIN: 'Removed' };

/** A SKU in a planner's words: model, colour and size ('AU7112 001 51'). */
const skuWords = (p: { model: string; color: string; size: string }) => `${p.model} ${p.color} ${p.size}`;

type LabelOf = (key: ModuleKeyString) => string | undefined;

const isDrag = (d: unknown): d is DragData => !!d && typeof d === 'object' && 'product' in d && !!(d as DragData).product;
const isDrop = (d: unknown): d is DropData => !!d && typeof d === 'object' && 'area' in d && 'moduleKey' in d;

/**
 * What dnd-kit's live region says while a SKU tile is dragged on the module page (issue 34): the SKU, the
 * area and the module by their labels — 'AU7112 001 51 picked up from Eligible of Aurora Optical Best
 * Sellers 01', '… moved to Must Have of …', '… dropped in …', 'Moving cancelled …' — never dnd-kit's ids.
 * `labelOf` reads the module labels when spoken (the page passes a ref-backed reader: no re-render).
 */
export function skuDragAccessibility(labelOf: LabelOf): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  // dnd-kit hands an empty `data` once the source tile has unmounted (virtualised rows): keep the start's.
  let started: DragData | null = null;
  // dnd-kit reports the start's own area as 'over' right after the pick-up: said once, not twice.
  let lastOver: string | null = null;
  const place = (key: ModuleKeyString | null, area: Area) => (key === null ? 'the Active SKUs panel' : `${AREA_NAMES[area]} of ${labelOf(key) ?? 'the module'}`);
  const sku = (data: unknown) => {
    const d = isDrag(data) ? data : started;
    return d ? skuWords(d.product) : 'The SKU';
  };
  const over = (data: unknown) => (isDrop(data) ? place(data.moduleKey, data.area) : null);
  return {
    screenReaderInstructions: {
      draggable:
        'To pick up a SKU, press Space or Enter. While it is picked up, the arrow keys move it from area to area (Must Have, Eligible, Removed, then the next module); press Space or Enter to drop it there, or Escape to cancel. Without picking it up, M switches it between Must Have and Eligible and Delete removes it.',
    },
    announcements: {
      onDragStart: ({ active }) => {
        started = isDrag(active.data.current) ? active.data.current : null;
        lastOver = started ? `${started.moduleKey}|${started.area}` : null;
        return started ? `${skuWords(started.product)} picked up from ${place(started.moduleKey, started.area)}.` : undefined;
      },
      onDragOver: ({ active, over: target }) => {
        const data = target?.data.current;
        const at = isDrop(data) ? `${data.moduleKey}|${data.area}` : 'none';
        if (at === lastOver) return undefined;
        lastOver = at;
        const to = over(data);
        return to ? `${sku(active.data.current)} moved to ${to}.` : `${sku(active.data.current)} is no longer over an area.`;
      },
      onDragEnd: ({ active, over: target }) => {
        const to = over(target?.data.current);
        const text = to ? `${sku(active.data.current)} dropped in ${to}.` : `${sku(active.data.current)} dropped outside the areas: nothing changed.`;
        started = null;
        return text;
      },
      onDragCancel: ({ active }) => {
        const from = isDrag(active.data.current) ? active.data.current : started;
        started = null;
        return from ? `Moving cancelled. ${skuWords(from.product)} stays in ${place(from.moduleKey, from.area)}.` : 'Moving cancelled.';
      },
    },
  };
}

/** The Modules panel's reordering in module labels ('Aurora Optical Best Sellers 01 moved to position 3 of 12'). */
export function moduleOrderAccessibility(labelOf: LabelOf, positionOf: (key: ModuleKeyString) => number, count: () => number): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  const name = (id: string | number) => labelOf(String(id)) ?? 'The module';
  const at = (id: string | number) => `position ${positionOf(String(id)) + 1} of ${count()}`;
  return {
    screenReaderInstructions: {
      draggable: 'To reorder the modules of the page, press Space or Enter on a grip, move the module up or down with the arrow keys, then press Space or Enter to drop it, or Escape to cancel.',
    },
    announcements: {
      onDragStart: ({ active }) => `${name(active.id)} picked up at ${at(active.id)}.`,
      onDragOver: ({ active, over }) => (over ? `${name(active.id)} moved to ${at(over.id)}.` : `${name(active.id)} is no longer over the list.`),
      onDragEnd: ({ active, over }) => (over ? `${name(active.id)} dropped at ${at(over.id)}.` : `${name(active.id)} dropped where it was.`),
      onDragCancel: ({ active }) => `Moving cancelled. ${name(active.id)} stays at ${at(active.id)}.`,
    },
  };
}
