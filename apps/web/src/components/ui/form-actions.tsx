import { Button, Group, type GroupProps } from '@mantine/core';
import { DisabledReason } from './disabled-reason';

/**
 * The Cancel / submit row at the foot of a form in a popup: Cancel is off while the form is busy, the submit
 * button loads, and `reason` (when truthy and not busy) says why submitting is off. Outside a <form>,
 * `onSubmit` is what the submit button does.
 */
export function FormActions({
  onCancel,
  busy,
  submitLabel,
  reason,
  submitTestId,
  onSubmit,
  ...group
}: {
  onCancel: () => void;
  onSubmit?: () => void;
  busy: boolean;
  submitLabel: string;
  reason?: string | false | null;
  submitTestId?: string;
} & Omit<GroupProps, 'children'>) {
  return (
    <Group justify="flex-end" {...group}>
      <Button variant="default" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <DisabledReason reason={!busy && reason}>
        <Button type="submit" onClick={onSubmit} loading={busy} data-testid={submitTestId}>
          {submitLabel}
        </Button>
      </DisabledReason>
    </Group>
  );
}
