import { type CollisionDetection, pointerWithin } from '@dnd-kit/core';
import { cornerCollision, jumpBetweenAreas, type KeyboardArea } from '@/components/editor/keyboard-dnd';

/** Reading order of the module page: module by module (top to bottom), and in each module MH, EL, then the bin. */
const RANK: Record<string, number> = { MH: 0, EL: 1, BIN: 2 };
const dataOf = (a: KeyboardArea) => a.container.data.current as { moduleKey?: string; area?: string } | undefined;

function moduleOrder(areas: KeyboardArea[]): KeyboardArea[] {
  const keyOf = (a: KeyboardArea) => dataOf(a)?.moduleKey ?? String(a.id);
  const moduleTop = new Map<string, number>();
  for (const a of areas) moduleTop.set(keyOf(a), Math.min(moduleTop.get(keyOf(a)) ?? Infinity, a.rect.top));
  return areas.sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    return moduleTop.get(ka)! - moduleTop.get(kb)! || ka.localeCompare(kb) || (RANK[dataOf(a)?.area ?? ''] ?? 0) - (RANK[dataOf(b)?.area ?? ''] ?? 0);
  });
}

/** Keyboard dragging jumps from drop area to drop area (MH, EL, bin, next module …) in reading order. */
export const jumpBetweenModuleAreas = jumpBetweenAreas(moduleOrder);

/** Pointer: the area under the pointer. Keyboard: the area that holds the dragged tile's top-left corner. */
export const areaCollision: CollisionDetection = (args) => (args.pointerCoordinates ? pointerWithin(args) : cornerCollision(args));
