import { Badge, Button, Group, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { FilterOptions } from '@bo/shared/search';
import { useLegoStatus } from '../hooks/use-lego-status';
import { summaryOf, type HomeSelection } from '../logic/home-selection';
import { LegoBadge } from './lego-badge';

const single = (values: readonly string[]) => (values.length === 1 ? values[0]! : null);

/** 'You searched:' with the searched values; Edit (given while the filters are closed) reopens them. */
export function SearchSummary({ searched, initial, onEdit }: { searched: HomeSelection; initial?: FilterOptions; onEdit?: () => void }) {
  const lego = useLegoStatus(searched.monthId, single(searched.brand), single(searched.collection));
  return (
    <Group gap="xs" wrap="wrap" data-testid="search-summary">
      <Text fw={700} fz="sm">
        You searched:
      </Text>
      {summaryOf(searched, initial).map((part) => (
        <Group key={part.label} gap={4} wrap="nowrap">
          <Text fz="xs" c="dimmed">
            {part.label}
          </Text>
          {part.values.map((v) => (
            <Badge key={v} variant="light" radius="sm" tt="none">
              {v}
            </Badge>
          ))}
        </Group>
      ))}
      <LegoBadge state={lego} />
      {onEdit && (
        <Button size="compact-xs" variant="subtle" leftSection={<IconPencil size={12} />} onClick={onEdit} data-testid="edit-search">
          Edit
        </Button>
      )}
    </Group>
  );
}
