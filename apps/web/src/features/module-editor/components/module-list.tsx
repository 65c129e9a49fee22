import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { EditorModule } from '../hooks/editor-reducer';
import type { ModuleAccess } from '../logic/module-access';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';
import type { SkuOrder } from '../logic/ordering';
import type { ItemNotice, Notices } from '@/components/editor/live-item-notices';
import { ModuleCard, type ModuleCardHandlers } from './module-card';
import { TileWindowContext, useTileWindow } from './tile-rows';

interface ModuleListProps {
  modules: EditorModule[];
  access: Record<ModuleKeyString, ModuleAccess>;
  collapsed: Record<ModuleKeyString, boolean>;
  skuOrder: SkuOrder;
  highlight: Record<ModuleKeyString, Set<string>> | null;
  handlers: ModuleCardHandlers;
  /** The live notices per module (lock lost, released, outdated). */
  notices?: Notices;
  /** Scroll to this module's card (a new object for every request). */
  scrollTo?: { key: ModuleKeyString } | null;
}

/** Rough card height before it is measured: header, description, and rows of ~7 tiles of ~150 px. */
function estimate(m: EditorModule, collapsed: boolean): number {
  if (collapsed) return 64;
  const active = m.products.filter((p) => p.moduleCompositionStatus !== 'REMOVED').length;
  return 150 + Math.ceil(Math.max(1, active) / 7) * 156;
}

/**
 * The module cards, virtualised: a page of 30 modules × 100 SKUs mounts only the cards in view
 * (plus one either side: a card is ~1,700 px tall), so it opens and drags as fast as a page of three.
 */
export function ModuleList({ modules, access, collapsed, skuOrder, highlight, handlers, notices, scrollTo }: ModuleListProps) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: modules.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => estimate(modules[i]!, !!collapsed[moduleKey(modules[i]!.dto)]),
    getItemKey: (i) => moduleKey(modules[i]!.dto),
    overscan: 1,
    gap: 10,
  });
  const tileWindow = useTileWindow(parentRef);
  useEffect(() => {
    if (!scrollTo) return;
    const index = modules.findIndex((m) => moduleKey(m.dto) === scrollTo.key);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'start' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new request scrolls; the list changing under it does not
  }, [scrollTo]);
  // The list's background is opaque (the page's own gray): Chromium then scrolls it as a layer of its own; with a
  // transparent one it layerized the page again at every frame of a drag's auto-scroll (590 → 206 ms in a 60 × 200 drag).
  return (
    <TileWindowContext.Provider value={tileWindow}>
      <div ref={parentRef} style={{ height: '100%', overflow: 'auto', padding: '2px 4px 24px 2px', background: 'var(--mantine-color-gray-0)' }} data-testid="module-list">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const m = modules[item.index]!;
            const key = moduleKey(m.dto);
            return (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}>
                <ModuleCard module={m} access={access[key]!} collapsed={!!collapsed[key]} skuOrder={skuOrder} highlight={highlight?.[key] ?? null} handlers={handlers} notice={notices?.[key] as ItemNotice | undefined} />
              </div>
            );
          })}
        </div>
      </div>
    </TileWindowContext.Provider>
  );
}
