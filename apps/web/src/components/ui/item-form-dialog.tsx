import type { ReactNode } from 'react';
import { ItemDialog } from './item-dialog';

/** What the form inside an item popup gets: the item it edits and how to close the popup. */
export interface ItemFormProps<T> {
  item: T;
  onClose: () => void;
}

/**
 * The popup component of one item's form (a user's permissions, a brand's): open while its `item` prop is
 * set, `Form` mounted afresh for each item (components/ui/item-dialog.tsx).
 */
export function itemFormDialog<T>(
  frame: { keyOf: (item: T) => string | number; title: string; size: number; testId: string },
  Form: (props: ItemFormProps<T>) => ReactNode,
) {
  return function ItemFormDialog({ item, onClose }: { item: T | null; onClose: () => void }) {
    return (
      <ItemDialog item={item} onClose={onClose} {...frame}>
        {(current) => <Form item={current} onClose={onClose} />}
      </ItemDialog>
    );
  };
}
