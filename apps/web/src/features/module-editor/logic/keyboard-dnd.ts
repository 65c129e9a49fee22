import { type CollisionDetection, type KeyboardCoordinateGetter, KeyboardCode, pointerWithin } from '@dnd-kit/core';

const ARROWS: string[] = [KeyboardCode.Down, KeyboardCode.Right, KeyboardCode.Up, KeyboardCode.Left];

/**
 * Keyboard dragging jumps from drop area to drop area (MH, EL, bin, next module …) in reading order:
 * ↓/→ next area, ↑/← previous. Space or Enter drops, Escape cancels.
 */
export const jumpBetweenAreas: KeyboardCoordinateGetter = (event, { context }) => {
  if (!ARROWS.includes(event.code)) return undefined;
  event.preventDefault();
  const { droppableRects, droppableContainers, over, collisionRect } = context;
  // Reading order: module by module (top to bottom), and in each module MH, EL, then the bin.
  const rank = { MH: 0, EL: 1, BIN: 2 } as Record<string, number>;
  const found = droppableContainers
    .getEnabled()
    .map((c) => ({ id: c.id, rect: droppableRects.get(c.id), data: c.data.current as { moduleKey?: string; area?: string } | undefined }))
    .filter((a): a is { id: typeof a.id; rect: NonNullable<typeof a.rect>; data: { moduleKey?: string; area?: string } | undefined } => !!a.rect);
  const moduleTop = new Map<string, number>();
  for (const a of found) {
    const k = a.data?.moduleKey ?? String(a.id);
    moduleTop.set(k, Math.min(moduleTop.get(k) ?? Infinity, a.rect.top));
  }
  const areas = found.sort((a, b) => {
    const ka = a.data?.moduleKey ?? String(a.id);
    const kb = b.data?.moduleKey ?? String(b.id);
    return moduleTop.get(ka)! - moduleTop.get(kb)! || ka.localeCompare(kb) || (rank[a.data?.area ?? ''] ?? 0) - (rank[b.data?.area ?? ''] ?? 0);
  });
  if (areas.length === 0 || !collisionRect) return undefined;
  const forward = event.code === KeyboardCode.Down || event.code === KeyboardCode.Right;
  let index = areas.findIndex((a) => a.id === over?.id);
  if (index === -1) {
    // Start from the area the tile sits in (its first area after it when none).
    index = areas.findIndex((a) => a.rect.top + a.rect.height > collisionRect.top);
    if (index === -1) index = areas.length - 1;
    if (forward) index -= 1;
  }
  const target = areas[Math.max(0, Math.min(areas.length - 1, index + (forward ? 1 : -1)))]!;
  return { x: target.rect.left + 6, y: target.rect.top + 6 };
};

/**
 * Pointer: the area under the pointer. Keyboard: the area that holds the dragged tile's top-left corner
 * (where jumpBetweenAreas puts it).
 */
export const areaCollision: CollisionDetection = (args) => {
  if (args.pointerCoordinates) return pointerWithin(args);
  const { left, top } = args.collisionRect;
  const x = left + 2;
  const y = top + 2;
  return args.droppableContainers
    .filter((c) => {
      const r = args.droppableRects.get(c.id);
      return r && x >= r.left && x <= r.left + r.width && y >= r.top && y <= r.top + r.height;
    })
    .map((c) => ({ id: c.id, data: { droppableContainer: c, value: 0 } }));
};
