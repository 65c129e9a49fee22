import { Button, Group, type MantineColor, Modal, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';

export interface ConfirmDialogProps {
  opened: boolean;
  title: React.ReactNode;
  /** The question, e.g. 'Are you sure you want to close the release R2027?' */
  message: React.ReactNode;
  /** What follows from saying yes, in smaller print. */
  details?: React.ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  confirmColor?: MantineColor;
  /** The confirmation is running: the buttons wait. */
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A Yes/No question in a small modal (spec: "each after Yes/No confirmation"). */
export function ConfirmDialog({
  opened,
  title,
  message,
  details,
  confirmLabel = 'Yes',
  cancelLabel = 'No',
  confirmColor,
  loading = false,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={loading ? () => undefined : onClose}
      title={typeof title === 'string' ? <Text fw={650}>{title}</Text> : title}
      centered radius="lg" size="md" data-testid="confirm-dialog">
      <Stack gap="lg">
        <Stack gap={6}>
          <Text fz="sm">{message}</Text>
          {details && (
            <Text fz="sm" c="dimmed">
              {details}
            </Text>
          )}
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={loading}>
            {cancelLabel}
          </Button>
          <Button color={confirmColor} onClick={onConfirm} loading={loading} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export interface ConfirmOptions {
  title: React.ReactNode;
  message: React.ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  confirmColor?: MantineColor;
}

/**
 * The same Yes/No question asked from code: resolves true when confirmed, false when cancelled or
 * closed. For a question that belongs to a component's state (with a loading confirm), use ConfirmDialog.
 */
export function confirmDialog({ title, message, confirmLabel = 'Yes', cancelLabel = 'No', confirmColor }: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (value: boolean) => {
      if (answered) return;
      answered = true;
      resolve(value);
    };
    modals.openConfirmModal({
      title: typeof title === 'string' ? <Text fw={650}>{title}</Text> : title,
      centered: true,
      radius: 'lg',
      children: typeof message === 'string' ? <Text fz="sm">{message}</Text> : message,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: confirmColor ? { color: confirmColor } : {},
      onConfirm: () => answer(true),
      onCancel: () => answer(false),
      onClose: () => answer(false),
    });
  });
}
