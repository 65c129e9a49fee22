import { Box } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Every row has this height (px): lists of thousands stay responsive. */
  rowHeight: number;
  getKey: (item: T, index: number) => string;
  renderRow: (item: T, index: number) => React.ReactNode;
  /** Rows rendered above and below the visible ones. */
  overscan?: number;
  'data-testid'?: string;
  'aria-label'?: string;
}

/**
 * A scrolling list that renders only the rows in view (@tanstack/react-virtual). It fills its parent,
 * which must have a height (a flex child with `min-height: 0`, or a fixed height).
 */
export function VirtualList<T>({ items, rowHeight, getKey, renderRow, overscan = 8, ...rest }: VirtualListProps<T>) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => rowHeight,
    overscan,
    getItemKey: (index) => getKey(items[index]!, index),
  });

  return (
    <Box ref={parentRef} h="100%" style={{ overflowY: 'auto', contain: 'strict' }} data-testid={rest['data-testid']} role="list" aria-label={rest['aria-label']}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            role="listitem"
            data-index={row.index}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: row.size, transform: `translateY(${row.start}px)` }}
          >
            {renderRow(items[row.index]!, row.index)}
          </div>
        ))}
      </div>
    </Box>
  );
}
