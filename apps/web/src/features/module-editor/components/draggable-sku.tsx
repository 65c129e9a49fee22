import { memo, useCallback, useMemo } from 'react';
import { focusAfterMove, useFocusAfterMove } from '@/components/ui/focus-after-move';
import { useDraggable } from '@dnd-kit/core';
import type { ProductDto } from '@bo/shared/modules';
import type { Area } from '../logic/drop-rules';
import { dragId, type DragData } from '../logic/dnd-ids';
import type { ModuleKeyString } from '../logic/module-key';
import { SkuTile, type SkuMenuAction } from './sku-tile';
import classes from './sku-tile.module.css';

type Key = ModuleKeyString | null;

/**
 * Handlers take the module key first, so that the page hands the same functions to every tile
 * (method syntax: a handler typed for module keys only is accepted for the panel's null key too).
 */
export interface DraggableSkuHandlers {
  onToggle?(key: Key, upc: string): void;
  onKeyAction?(key: Key, upc: string, pressed: string): void;
  onMinValue?(key: Key, upc: string, value: number): void;
  menu?(key: Key, product: ProductDto, area: Area): SkuMenuAction[];
  onInfo?(key: Key, product: ProductDto): void;
}

interface DraggableSkuProps extends DraggableSkuHandlers {
  /** The tile's module; null for a SKU of the Active SKUs panel. */
  moduleKey: Key;
  product: DragData['product'];
  area: Area;
  readOnly: boolean;
  compact?: boolean;
  dimmed?: boolean;
}

/**
 * A tile that can be dragged with the pointer or the keyboard (focus it, Space to lift, arrows to move
 * between areas, Space to drop). Double-click toggles MH/EL; M toggles and Delete bins it from the keyboard.
 * dnd-kit re-renders it when a drag starts or ends; the tile inside keeps its props and is not re-rendered.
 */
export const DraggableSku = memo(function DraggableSku({ moduleKey, product, area, readOnly, compact, dimmed, onToggle, onKeyAction, onMinValue, menu, onInfo }: DraggableSkuProps) {
  const data = useMemo<DragData>(() => ({ moduleKey, product, area }), [moduleKey, product, area]);
  const id = dragId(moduleKey, product.upc);
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id, data, disabled: readOnly });
  // M, Delete or a move of the ⋮ menu re-draws the tile in its new area: the new tile takes the focus back.
  const setRef = useFocusAfterMove(id, setNodeRef);
  const { onKeyDown, ...pointer } = listeners ?? {};
  const tileMinValue = useCallback((upc: string, value: number) => onMinValue?.(moduleKey, upc, value), [onMinValue, moduleKey]);
  const tileMenu = useCallback(
    (p: ProductDto, a: Area) =>
      (menu?.(moduleKey, p, a) ?? []).map((item) => ({
        ...item,
        onSelect: () => {
          focusAfterMove(id);
          item.onSelect();
        },
      })),
    [menu, moduleKey, id],
  );
  const tileInfo = useCallback((p: ProductDto) => onInfo?.(moduleKey, p), [onInfo, moduleKey]);
  return (
    <div
      ref={setRef}
      {...attributes}
      {...pointer}
      // A group, not dnd-kit's role="button": the tile holds buttons of its own (a button may hold none).
      role="group"
      aria-roledescription="draggable SKU"
      aria-label={`${product.model} ${product.color} ${product.size} (${area})`}
      className={classes.draggable}
      data-readonly={readOnly || undefined}
      data-dragging={isDragging || undefined}
      onDoubleClick={readOnly ? undefined : () => onToggle?.(moduleKey, product.upc)}
      onKeyDown={(event) => {
        if (!readOnly && !isDragging && (event.key === 'm' || event.key === 'M' || event.key === 'Delete')) {
          event.preventDefault();
          focusAfterMove(id);
          onKeyAction?.(moduleKey, product.upc, event.key);
          return;
        }
        (onKeyDown as ((e: React.KeyboardEvent) => void) | undefined)?.(event);
      }}
    >
      <SkuTile
        product={product}
        area={area}
        readOnly={readOnly}
        compact={compact}
        dimmed={dimmed}
        onMinValue={onMinValue ? tileMinValue : undefined}
        menu={menu ? tileMenu : undefined}
        onInfo={onInfo ? tileInfo : undefined}
      />
    </div>
  );
});
