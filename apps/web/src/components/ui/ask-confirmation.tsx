import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

export interface AskOptions {
  title?: string;
  message: React.ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
}

/**
 * A Yes/No question asked from code, as a promise: true when confirmed, false when cancelled or closed.
 * (For a question owned by a component's state, use ConfirmDialog.)
 */
export function askConfirmation({ title = 'Confirm', message, confirmLabel = 'Yes', cancelLabel = 'No', danger = false }: AskOptions): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: <Text fw={700}>{title}</Text>,
      centered: true,
      children: typeof message === 'string' ? <Text fz="sm">{message}</Text> : message,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: danger ? { color: 'red' } : {},
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
