import { Button, Group, type MantineColor, type MantineSize, Modal, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useEffect, useRef } from 'react';

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
  // A double click sends its second click before the page has drawn `loading` (the mutation's pending
  // state arrives a task later): the first click is the answer, the rest wait for the dialog to open again
  // or for its work to start or end.
  const answered = useRef(false);
  useEffect(() => {
    answered.current = false;
  }, [opened, loading]);
  const confirm = () => {
    if (answered.current) return;
    answered.current = true;
    onConfirm();
  };
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
          <Button color={confirmColor} onClick={confirm} loading={loading} data-autofocus>
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
  /** The modal's width (Mantine's default, md, when not given): a question with a list needs more. */
  size?: MantineSize;
  /**
   * The work that Yes starts (a save, a publish): while it runs the dialog stays open, its confirm button
   * shows a loader and ignores further clicks, and No, Escape and the outside click do nothing. The dialog
   * closes when it settles; its error rejects the returned promise.
   */
  action?: () => Promise<unknown>;
}

let nextConfirmId = 0;

/**
 * The same Yes/No question asked from code: resolves true when confirmed (and, with `action`, once the
 * action is done), false when cancelled or closed. Only the first answer counts: a double click on Yes
 * confirms once. For a question that belongs to a component's state, use ConfirmDialog.
 */
export function confirmDialog({ title, message, confirmLabel = 'Yes', cancelLabel = 'No', confirmColor, size, action }: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const modalId = `confirm-dialog-${++nextConfirmId}`;
    const confirmProps = { ...(confirmColor ? { color: confirmColor } : {}), 'data-testid': 'confirm-dialog-yes' };
    let answered = false;
    const answer = (value: boolean) => {
      if (answered) return;
      answered = true;
      resolve(value);
    };
    const confirmed = () => {
      if (answered) return;
      if (!action) return answer(true);
      answered = true;
      modals.updateModal({
        modalId,
        confirmProps: { ...confirmProps, loading: true },
        cancelProps: { disabled: true },
        closeOnEscape: false,
        closeOnClickOutside: false,
        withCloseButton: false,
      });
      action().then(
        () => {
          modals.close(modalId);
          resolve(true);
        },
        (error: unknown) => {
          modals.close(modalId);
          reject(error);
        },
      );
    };
    modals.openConfirmModal({
      modalId,
      title: typeof title === 'string' ? <Text fw={650}>{title}</Text> : title,
      centered: true,
      radius: 'lg',
      ...(size ? { size } : {}),
      children: typeof message === 'string' ? <Text fz="sm">{message}</Text> : message,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps,
      closeOnConfirm: !action,
      onConfirm: confirmed,
      onCancel: () => answer(false),
      onClose: () => answer(false),
    });
  });
}
