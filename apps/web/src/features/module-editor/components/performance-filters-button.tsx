import { Badge, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconFilter } from '@tabler/icons-react';
import type { PerformanceFilters } from '@bo/shared/working-area';
import { activePerformanceFilters, DEFAULT_PERFORMANCE_FILTERS, PerformanceFilterFields } from './performance-filter-fields';

/** The header's performance filters (part 2 §2 "Header"): the page's one set, shown with how many apply. */
export function PerformanceFiltersButton({ value, onChange }: { value: PerformanceFilters; onChange: (next: PerformanceFilters) => void }) {
  const active = activePerformanceFilters(value);
  return (
    <Popover position="bottom-start" shadow="md" width={420} trapFocus closeOnEscape>
      <Popover.Target>
        <Button
          size="compact-sm"
          variant={active ? 'light' : 'default'}
          leftSection={<IconFilter size={14} />}
          rightSection={active ? <Badge size="xs" circle>{active}</Badge> : undefined}
          data-testid="performance-filters"
        >
          Performance filters
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="performance-filters-panel">
        <Stack gap="xs">
          <Text fz="xs" c="dimmed">
            Used by the performance popup and the Active SKUs search (SKUs that sold in these places over the months rolling).
          </Text>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <PerformanceFilterFields value={value} onChange={onChange} withinPortal={false} />
          </Group>
          <Group justify="flex-end">
            <DisabledReason reason={!active && 'The filters are already the defaults'}>
              <Button size="compact-xs" variant="subtle" onClick={() => onChange(DEFAULT_PERFORMANCE_FILTERS)}>
                Reset
              </Button>
            </DisabledReason>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
