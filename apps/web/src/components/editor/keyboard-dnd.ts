import { type ClientRect, type CollisionDetection, type DroppableContainer, KeyboardCode, type KeyboardCoordinateGetter, type UniqueIdentifier } from '@dnd-kit/core';

/** A drop area as the keyboard walks it: its id, where it is, and its drop data. */
export interface KeyboardArea {
  id: UniqueIdentifier;
  rect: ClientRect;
  container: DroppableContainer;
}

const FORWARD: string[] = [KeyboardCode.Down, KeyboardCode.Right];
const BACKWARD: string[] = [KeyboardCode.Up, KeyboardCode.Left];

/**
 * Keyboard dragging of both editors: the arrows jump from drop area to drop area in the editor's reading
 * order (`inOrder` sorts them), ↓/→ next, ↑/← previous; Space or Enter drops, Escape cancels. dnd-kit's
 * default moves 25 px a press, and scrolls the page instead near its edge.
 */
export function jumpBetweenAreas(inOrder: (areas: KeyboardArea[]) => KeyboardArea[]): KeyboardCoordinateGetter {
  return (event, { context }) => {
    const forward = FORWARD.includes(event.code);
    if (!forward && !BACKWARD.includes(event.code)) return undefined;
    event.preventDefault();
    const { droppableRects, droppableContainers, over, collisionRect } = context;
    const areas = inOrder(
      droppableContainers
        .getEnabled()
        .map((container) => ({ id: container.id, rect: droppableRects.get(container.id), container }))
        .filter((a): a is KeyboardArea => !!a.rect),
    );
    if (areas.length === 0 || !collisionRect) return undefined;
    let index = areas.findIndex((a) => a.id === over?.id);
    if (index === -1) {
      // Start from the area the item sits in (its first area after it when none).
      index = areas.findIndex((a) => a.rect.top + a.rect.height > collisionRect.top);
      if (index === -1) index = areas.length - 1;
      if (forward) index -= 1;
    }
    const target = areas[Math.max(0, Math.min(areas.length - 1, index + (forward ? 1 : -1)))]!;
    return { x: target.rect.left + 6, y: target.rect.top + 6 };
  };
}

/** Keyboard drags (no pointer): the area holding the dragged item's top-left corner, where jumpBetweenAreas puts it. */
export const cornerCollision: CollisionDetection = (args) => {
  const x = args.collisionRect.left + 2;
  const y = args.collisionRect.top + 2;
  return args.droppableContainers
    .filter((c) => {
      const r = args.droppableRects.get(c.id);
      return r && x >= r.left && x <= r.left + r.width && y >= r.top && y <= r.top + r.height;
    })
    .map((c) => ({ id: c.id, data: { droppableContainer: c, value: 0 } }));
};
