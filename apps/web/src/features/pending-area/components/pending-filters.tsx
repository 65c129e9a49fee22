import { Text } from '@mantine/core';
import { hasPendingFilter, PENDING_TEXTS, type PendingAreaFilters, type PendingFilterKey, type PendingFilterOptions, type PendingView } from '@bo/shared/pending-area';
import { AreaFilters, type AreaFilterField } from '@/components/ui/area-filters';
import { statusLabel } from '@bo/shared/statuses';
import { formatMonthId } from '@/lib/format';

const FILTERS: readonly AreaFilterField<PendingFilterKey>[] = [
  { key: 'status', label: 'Status' },
  { key: 'brandCode', label: 'Brand', showValues: true },
  { key: 'commodity', label: 'Commodity' },
  { key: 'months', label: 'Months' },
];

const VIEWS: readonly { value: PendingView; label: string }[] = [
  { value: 'module', label: 'Modules' },
  { value: 'cluster', label: 'Clusters' },
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
    <AreaFilters
      testId="pending"
      title="Pending Area"
      view={view}
      views={VIEWS}
      onViewChange={onViewChange}
      fields={FILTERS}
      filters={filters}
      options={options}
      shown={shown}
      loading={loading}
      nothingFound="No pending item has one"
      onChange={(f) => onChange(f as PendingAreaFilters)}
      onSearch={onSearch}
      searchDisabled={!ready && PENDING_TEXTS.selectFilter}
    >
      {!ready && (
        <Text fz="xs" c="dimmed" mt={-8} data-testid="pending-select-filter">
          {PENDING_TEXTS.selectFilter}
        </Text>
      )}
    </AreaFilters>
  );
}
