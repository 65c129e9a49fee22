import { Text } from '@mantine/core';
import { hasPendingFilter, PENDING_TEXTS, type PendingAreaFilters, type PendingFilterKey, type PendingFilterOptions, type PendingView } from '@bo/shared/pending-area';
import { AreaFilters, type AreaFilterField, type AreaFilterState } from '@/components/ui/area-filters';
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
export function PendingFilters(area: AreaFilterState<PendingView, PendingAreaFilters, PendingFilterOptions>) {
  const ready = hasPendingFilter(area.filters);
  return (
    <AreaFilters
      {...area}
      testId="pending"
      title="Pending Area"
      views={VIEWS}
      fields={FILTERS}
      shown={shown}
      nothingFound="No pending item has one"
      onChange={(f) => area.onChange(f as PendingAreaFilters)}
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
