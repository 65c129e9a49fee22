import { Group, Text } from '@mantine/core';
import { StatusBadge } from '@/components/ui/status-badge';

/** The second line of a module or cluster row: its key, its status, then a few facts (cut when narrow). */
export function ItemMeta({ code, status, facts }: { code: string; status: string; facts: (string | null | undefined | false)[] }) {
  return (
    <Group gap={8} wrap="nowrap" mt={2}>
      <Text fz={11} c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
        {code}
      </Text>
      <StatusBadge status={status} size="xs" />
      <Text fz={11} c="dimmed" truncate="end" style={{ minWidth: 0 }}>
        {facts.filter(Boolean).join('  ·  ')}
      </Text>
    </Group>
  );
}
