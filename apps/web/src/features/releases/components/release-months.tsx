import { Group, Paper, Text } from '@mantine/core';
import { formatMonthId } from '@/lib/format';
import type { Release } from '@bo/shared/releases';
import { StatusBadge } from '@/components/ui/status-badge';

/** The planning months of a release with their open state (the expandable row of the releases table). */
export function ReleaseMonths({ release }: { release: Release }) {
  if (release.months.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        This release has no planning months.
      </Text>
    );
  }
  const open = release.months.filter((m) => m.open).length;
  return (
    <div data-testid={`release-months-${release.releaseId}`}>
      <Text fz="sm" fw={600} mb={8}>
        Planning months of {release.releaseId}
        <Text span c="dimmed" fw={400} fz="sm">
          {' '}
          · {open} open, {release.months.length - open} closed
        </Text>
      </Text>
      <Group gap="xs">
        {release.months.map((m) => (
          <Paper key={m.monthId} withBorder radius="md" px="sm" py={6} bg="white" data-testid={`month-${m.monthId}`}>
            <Group gap="sm" wrap="nowrap">
              <Text fz="sm" fw={500} ff="monospace">
                {formatMonthId(m.monthId)}
              </Text>
              <StatusBadge status={m.open ? 'OPEN' : 'CLOSED'} label={m.open ? 'Open' : 'Closed'} size="sm" />
            </Group>
          </Paper>
        ))}
      </Group>
    </div>
  );
}
