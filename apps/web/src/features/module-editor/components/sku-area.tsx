import { memo, useMemo } from 'react';
import { focusPending } from '@/components/ui/focus-after-move';
import { useDroppable } from '@dnd-kit/core';
import { Box, Group, Text } from '@mantine/core';
import type { ProductDto } from '@bo/shared/modules';
import type { Area } from '../logic/drop-rules';
import { dragId, dropId, type DropData } from '../logic/dnd-ids';
import type { ModuleKeyString } from '../logic/module-key';
import { DraggableSku } from './draggable-sku';
import type { SkuMenuAction } from './sku-tile';
import classes from './sku-area.module.css';
import { useTileRows, type GridSpec } from './tile-rows';

const TITLES: Record<Area, string> = { MH: 'Must Have', EL: 'Eligible', BIN: 'Removed' };

/** The grids of sku-area.module.css (.grid and .binGrid) and their tiles' heights. */
const FULL: GridSpec = { kind: 'full', min: 128, gap: 6, estimate: 150 };
const COMPACT: GridSpec = { kind: 'compact', min: 104, gap: 5, estimate: 120 };

/** An area of at most this many tiles draws them all; a larger one draws the rows near the viewport (tile-rows.ts). */
const ALL_TILES = 24;

export interface SkuAreaProps {
  moduleKey: ModuleKeyString;
  area: Area;
  products: ProductDto[];
  readOnly: boolean;
  emptyText: string;
  /** Newness view: SKUs outside it are dimmed. */
  highlight: Set<string> | null;
  onToggle: (key: ModuleKeyString, upc: string) => void;
  onKeyAction: (key: ModuleKeyString, upc: string, pressed: string) => void;
  onMinValue: (key: ModuleKeyString, upc: string, value: number) => void;
  menu: (key: ModuleKeyString, product: ProductDto, area: Area) => SkuMenuAction[];
  onInfo: (key: ModuleKeyString, product: ProductDto) => void;
}

/** A drop area of a module card (MH, EL or the bin) with its tiles. */
export const SkuArea = memo(function SkuArea(props: SkuAreaProps) {
  const { moduleKey, area, products, readOnly, emptyText, highlight, onToggle, onKeyAction, onMinValue, menu, onInfo } = props;
  const data = useMemo<DropData>(() => ({ moduleKey, area }), [moduleKey, area]);
  // dnd-kit re-renders every droppable when a drag starts, crosses an area or ends: the tiles are
  // built here once per change of the list, so those renders stop at this component.
  const { setNodeRef, isOver, active } = useDroppable({ id: dropId(moduleKey, area), data, disabled: readOnly });
  const bin = area === 'BIN';
  // The tile a key just moved here takes the focus back (focus-after-move): it is drawn even where rows are not.
  const pendingFocus = focusPending();
  const include = pendingFocus ? products.findIndex((p) => dragId(moduleKey, p.upc) === pendingFocus) : -1;
  const rows = useTileRows(products.length, bin ? COMPACT : FULL, products.length <= ALL_TILES, include);
  const { from, to } = rows;
  const tiles = useMemo(
    () =>
      products.slice(from, to).map((p) => (
        <DraggableSku
          key={p.upc}
          moduleKey={moduleKey}
          product={p}
          area={area}
          readOnly={readOnly}
          compact={bin}
          dimmed={!!highlight && !highlight.has(p.upc)}
          onToggle={onToggle}
          onKeyAction={onKeyAction}
          onMinValue={onMinValue}
          menu={menu}
          onInfo={onInfo}
        />
      )),
    [products, from, to, moduleKey, area, readOnly, bin, highlight, onToggle, onKeyAction, onMinValue, menu, onInfo],
  );
  return (
    <Box
      ref={setNodeRef}
      className={classes.area}
      data-area={area}
      data-over={(isOver && !readOnly) || undefined}
      data-droppable={(!!active && !readOnly) || undefined}
      data-testid={`area-${area}`}
      aria-label={`${TITLES[area]} area`}
    >
      <Group gap={6} className={classes.title}>
        <Text fz={11} fw={700} tt="uppercase" lts={0.6} c={area === 'MH' ? 'brand.8' : area === 'EL' ? 'teal.9' : 'gray.7'}>
          {TITLES[area]}
        </Text>
        <Text fz={11} c="dimmed" data-testid={`count-${area}`}>
          {products.length}
        </Text>
      </Group>
      {products.length === 0 ? (
        <Text fz="xs" c="dimmed" py={bin ? 6 : 14} ta="center">
          {emptyText}
        </Text>
      ) : (
        <div ref={rows.gridRef} className={bin ? classes.binGrid : classes.grid} style={{ paddingTop: rows.paddingTop, paddingBottom: rows.paddingBottom }}>
          {tiles}
        </div>
      )}
    </Box>
  );
});
