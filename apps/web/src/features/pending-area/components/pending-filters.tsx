import { Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { hasPendingFilter, PENDING_TEXTS, type PendingAreaFilters, type PendingFilterKey, type PendingFilterOptions, type PendingView } from '@bo/shared/pending-area';
import { PagedSelect } from '@/components/ui/paged-select';
import { statusLabel } from '@bo/shared/statuses';
import { formatMonthId } from '@/lib/format';

const FILTERS: readonly { key: PendingFilterKey; label: string }[] = [
  { key: 'status', label: 'Status' },
  { key: 'brandCode', label: 'Brand' },
  { key: 'commodity', label: 'Commodity' },
  { key: 'months', label: 'Months' },
];

const shown = (key: PendingFilterKey, o: { value: string; label: string }) =>
  key === 'months' ? { value: o.value, label: formatMonthId(o.value) } : key === 'status' ? { value: o.value, label: statusLabel(o.value) } : o;

/**
 * The Pending Area sidebar (part 2 §2, §5): the Modules/Clusters switch, the four multi-select filters
 * (their values found among the caller's pending items) and Search, disabled until one filter has a value.
 */
export function PendingFilters({
  view,
  filters,
  options,
  loading,
  onViewChange,
  onChange,
  onSearch,
}: {
  view: PendingView;
  filters: PendingAreaFilters;
  options: PendingFilterOptions | undefined;
  loading: boolean;
  onViewChange: (view: PendingView) => void;
  onChange: (filters: PendingAreaFilters) => void;
  onSearch: () => void;
}) {
  const ready = hasPendingFilter(filters);
  return (
    <Stack gap="lg" data-testid="pending-filters">
      <Text fz="sm" fw={700} tt="uppercase" lts={0.8}>
        Pending Area
      </Text>
      <SegmentedControl
        fullWidth
        value={view}
        onChange={(v) => onViewChange(v as PendingView)}
        data={[
          { value: 'module', label: 'Modules' },
          { value: 'cluster', label: 'Clusters' },
        ]}
        data-testid="pending-view"
      />
      <Stack gap="sm">
        {FILTERS.map(({ key, label }) => (
          <PagedSelect
            key={key}
            multiple
            label={label}
            placeholder={loading ? 'Loading…' : 'All'}
            data={(options?.[key] ?? []).map((o) => shown(key, o))}
            showValues={key === 'brandCode'}
            value={filters[key] ?? []}
            onChange={(values) => onChange({ ...filters, [key]: values })}
            nothingFound="No pending item has one"
            data-testid={`pending-filter-${key}`}
          />
        ))}
      </Stack>
      <Button leftSection={<IconSearch size={16} />} onClick={onSearch} disabled={!ready} fullWidth data-testid="pending-search">
        Search
      </Button>
      {!ready && (
        <Text fz="xs" c="dimmed" mt={-8} data-testid="pending-select-filter">
          {PENDING_TEXTS.selectFilter}
        </Text>
      )}
    </Stack>
  );
}
