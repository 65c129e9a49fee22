import { Modal, Text, type ModalProps } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';

/**
 * A popup about one item (a user's permissions, a brand's): open while `item` is set, its form mounted afresh
 * for each item (keyed by `keyOf`), so the form starts from that item's values.
 */
export function ItemDialog<T>({
  item,
  keyOf,
  onClose,
  title,
  size,
  testId,
  children,
}: {
  item: T | null;
  keyOf: (item: T) => string | number;
  onClose: () => void;
  title: string;
  size: ModalProps['size'];
  testId: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <Modal opened={item !== null} onClose={onClose} size={size} radius="lg" centered title={<Text fw={650} fz="lg">{title}</Text>} data-testid={testId}>
      {item !== null && <Fragment key={keyOf(item)}>{children(item)}</Fragment>}
    </Modal>
  );
}
