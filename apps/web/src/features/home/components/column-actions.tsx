import { ActionIcon, Button } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { DisabledReason } from '@/components/ui/disabled-reason';

/** The small icon buttons of a result column's header; disabled, each says why (components/ui/disabled-reason.tsx). */
export function CreateButton({ label, disabled, disabledReason, onClick, testId }: { label: string; disabled?: boolean; disabledReason?: string; onClick: () => void; testId: string }) {
  return (
    <DisabledReason reason={disabled && (disabledReason ?? 'You need the create right')} label={label}>
      <ActionIcon variant="light" size="md" radius="md" aria-label={label} onClick={onClick} data-testid={testId}>
        <IconPlus size={16} />
      </ActionIcon>
    </DisabledReason>
  );
}

export function DeleteButton({ label, disabled, disabledReason, onClick, testId }: { label: string; disabled?: boolean; disabledReason?: string; onClick: () => void; testId: string }) {
  return (
    <DisabledReason reason={disabled && (disabledReason ?? 'Select the items to delete first')} label={label}>
      <ActionIcon variant="light" color="red" size="md" radius="md" aria-label={label} onClick={onClick} data-testid={testId}>
        <IconTrash size={16} />
      </ActionIcon>
    </DisabledReason>
  );
}

export function OpenButton({ label, disabled, disabledReason, onClick, testId }: { label: string; disabled?: boolean; disabledReason?: string; onClick: () => void; testId: string }) {
  return (
    <DisabledReason reason={disabled && (disabledReason ?? 'Select at least one row first')}>
      <Button size="compact-sm" radius="md" onClick={onClick} data-testid={testId}>
        {label}
      </Button>
    </DisabledReason>
  );
}
