import { ActionIcon, Button, Group } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
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
  const reason = !line.canDecide && SUGGESTION_TEXTS.notAllowed;
  return compact ? (
    <Group gap={6} wrap="nowrap">
      <DisabledReason reason={reason} label="Approve">
        <ActionIcon color="teal" aria-label="Approve" onClick={() => onApprove(line)}>
          <IconCheck size={16} />
        </ActionIcon>
      </DisabledReason>
      <DisabledReason reason={reason} label="Reject">
        <ActionIcon color="red" variant="light" aria-label="Reject" onClick={() => onReject(line)}>
          <IconX size={16} />
        </ActionIcon>
      </DisabledReason>
    </Group>
  ) : (
    <Group gap="sm" wrap="nowrap">
      <DisabledReason reason={reason}>
        <Button color="red" variant="light" leftSection={<IconX size={16} />} onClick={() => onReject(line)}>
          Reject
        </Button>
      </DisabledReason>
      <DisabledReason reason={reason}>
        <Button color="teal" leftSection={<IconCheck size={16} />} onClick={() => onApprove(line)}>
          Approve
        </Button>
      </DisabledReason>
    </Group>
  );
}
