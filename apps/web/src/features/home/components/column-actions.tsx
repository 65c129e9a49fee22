import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';

/** The small icon buttons of a result column's header. */
export function CreateButton({ label, disabled, disabledReason, onClick, testId }: { label: string; disabled?: boolean; disabledReason?: string; onClick: () => void; testId: string }) {
  return (
    <Tooltip label={disabled && disabledReason ? disabledReason : label} withArrow>
      <ActionIcon variant="light" size="md" radius="md" aria-label={label} disabled={disabled} onClick={onClick} data-testid={testId}>
        <IconPlus size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

export function DeleteButton({ label, disabled, onClick, testId }: { label: string; disabled?: boolean; onClick: () => void; testId: string }) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="light" color="red" size="md" radius="md" aria-label={label} disabled={disabled} onClick={onClick} data-testid={testId}>
        <IconTrash size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

export function OpenButton({ label, disabled, onClick, testId }: { label: string; disabled?: boolean; onClick: () => void; testId: string }) {
  return (
    <Button size="compact-sm" radius="md" disabled={disabled} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
}
