import { Alert, Badge, Button, Group, Modal, Stack, Text, type ModalProps } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { formatMonthId } from '@/lib/format';
import type { LegoState } from '../hooks/use-lego-status';
import { LegoBadge } from './lego-badge';

interface CreationModalProps {
  opened: boolean;
  onClose: () => void;
  /** While saving the popup cannot be closed. */
  busy: boolean;
  title: string;
  /** The month it creates in, and its LEGO lookup (shown next to the title). */
  monthId?: string;
  lego?: LegoState;
  size?: ModalProps['size'];
  testId: string;
  onSubmit: () => void;
  /** "Unable to create …" with the server's lines. */
  errorTitle: string;
  serverError: string[] | null;
  submitLabel: string;
  submitTestId?: string;
  submitDisabled?: boolean;
  /** A line above the buttons. */
  footnote?: React.ReactNode;
  children: React.ReactNode;
}

/** The shell of the home's create popups (family, module, cluster): title, form, server error, Cancel / Create. */
export function CreationModal(p: CreationModalProps) {
  return (
    <Modal
      opened={p.opened}
      onClose={p.busy ? () => undefined : p.onClose}
      size={p.size ?? 'md'}
      radius="lg"
      centered
      data-testid={p.testId}
      title={
        <Group gap="sm">
          <Text fw={700}>{p.title}</Text>
          {p.monthId && (
            <Badge variant="light" radius="sm">
              {formatMonthId(p.monthId)}
            </Badge>
          )}
          {p.lego && <LegoBadge state={p.lego} />}
        </Group>
      }
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          p.onSubmit();
        }}
      >
        <Stack gap="sm">
          {p.children}
          {p.serverError && (
            <Alert color="red" variant="light" title={p.errorTitle} data-testid="create-error">
              {p.serverError.map((line) => (
                <Text key={line} fz="sm">
                  {line}
                </Text>
              ))}
            </Alert>
          )}
          {p.footnote}
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={p.onClose} disabled={p.busy}>
              Cancel
            </Button>
            <DisabledReason reason={p.submitDisabled && !p.busy && 'Correct the fields marked in red first'}>
              <Button type="submit" loading={p.busy} data-testid={p.submitTestId}>
                {p.submitLabel}
              </Button>
            </DisabledReason>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
