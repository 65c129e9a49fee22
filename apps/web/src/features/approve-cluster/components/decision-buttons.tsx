import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { SUGGESTION_TEXTS, type SuggestedCluster } from '@bo/shared/suggested-clusters';

interface DecisionButtonsProps {
  line: SuggestedCluster;
  onApprove: (line: SuggestedCluster) => void;
  onReject: (line: SuggestedCluster) => void;
  /** Icons in a table row, labelled buttons in the preview. */
  compact?: boolean;
}

/**
 * Approve and Reject of a PENDING suggestion (nothing for the others). Without the right (the line's
 * `canDecide`, the server's own rule) they stay visible but disabled, and say why.
 */
export function DecisionButtons({ line, onApprove, onReject, compact = false }: DecisionButtonsProps) {
  if (line.status !== 'PENDING') return null;
  const disabled = !line.canDecide;
  const buttons = compact ? (
    <Group gap={6} wrap="nowrap">
      <Tooltip label="Approve" withArrow disabled={disabled}>
        <ActionIcon color="teal" aria-label="Approve" disabled={disabled} onClick={() => onApprove(line)}>
          <IconCheck size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Reject" withArrow disabled={disabled}>
        <ActionIcon color="red" variant="light" aria-label="Reject" disabled={disabled} onClick={() => onReject(line)}>
          <IconX size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  ) : (
    <Group gap="sm" wrap="nowrap">
      <Button color="red" variant="light" leftSection={<IconX size={16} />} disabled={disabled} onClick={() => onReject(line)}>
        Reject
      </Button>
      <Button color="teal" leftSection={<IconCheck size={16} />} disabled={disabled} onClick={() => onApprove(line)}>
        Approve
      </Button>
    </Group>
  );
  if (!disabled) return buttons;
  // A disabled button gets no pointer events: the explanation hangs on a wrapper.
  return (
    <Tooltip label={SUGGESTION_TEXTS.notAllowed} withArrow multiline w={240}>
      <span style={{ display: 'inline-block' }}>{buttons}</span>
    </Tooltip>
  );
}
