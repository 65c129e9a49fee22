import { Button, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconSearch } from '@tabler/icons-react';
import { DISCO_TEXTS, type DiscoFilterKey, type DiscoFilterOptions, type DiscoFilters as Filters, type DiscoView } from '@bo/shared/disco-area';
import { PagedSelect } from '@/components/ui/paged-select';
import { formatMonthId } from '@/lib/format';

const FILTERS: readonly { key: DiscoFilterKey; label: string }[] = [
  { key: 'brandCode', label: 'Brand' },
  { key: 'commodity', label: 'Commodity' },
  { key: 'months', label: 'Months' },
  { key: 'type', label: 'Type' },
  { key: 'moduleLabel', label: 'Module' },
  { key: 'materialCode', label: 'Model' },
  { key: 'skuCode', label: 'Grid' },
  { key: 'upc', label: 'UPC' },
  { key: 'planningChannel', label: 'Planning channel' },
  { key: 'starsZones', label: 'Stars zones' },
  { key: 'storeCount', label: 'Store count' },
];

const shown = (key: DiscoFilterKey, o: { value: string; label: string }) => (key === 'months' ? { value: o.value, label: formatMonthId(o.value) } : o);

/**
 * The Disco/Removed Area sidebar (part 2 §2, §5): the 'Disco Area' / 'Removed Area' switch, the disco
 * filters (options found among the caller's rows, narrowed by the other choices), Search, and
 * 'GO TO MASSIVE EDIT', disabled until a row is checked.
 */
export function DiscoFilters({
  view,
  filters,
  options,
  loading,
  checkedCount,
  onViewChange,
  onChange,
  onSearch,
  onMassiveEdit,
}: {
  view: DiscoView;
  filters: Filters;
  options: DiscoFilterOptions | undefined;
  loading: boolean;
  checkedCount: number;
  onViewChange: (view: DiscoView) => void;
  onChange: (filters: Filters) => void;
  onSearch: () => void;
  onMassiveEdit: () => void;
}) {
  return (
    <Stack gap="lg" data-testid="disco-filters">
      <Text fz="sm" fw={700} tt="uppercase" lts={0.8}>
        Disco / Removed
      </Text>
      <SegmentedControl
        fullWidth
        value={view}
        onChange={(v) => onViewChange(v as DiscoView)}
        data={[
          { value: 'disco', label: DISCO_TEXTS.discoArea },
          { value: 'removed', label: DISCO_TEXTS.removedArea },
        ]}
        data-testid="disco-view"
      />
      <Stack gap="sm">
        {FILTERS.map(({ key, label }) => (
          <PagedSelect
            key={key}
            multiple
            label={label}
            placeholder={loading ? 'Loading…' : 'All'}
            data={(options?.[key] ?? []).map((o) => shown(key, o))}
            showValues={key === 'brandCode' || key === 'planningChannel' || key === 'starsZones'}
            value={filters[key] ?? []}
            onChange={(values) => onChange({ ...filters, [key]: values })}
            nothingFound="No row has one"
            data-testid={`disco-filter-${key}`}
          />
        ))}
      </Stack>
      <Button leftSection={<IconSearch size={16} />} onClick={onSearch} fullWidth data-testid="disco-search">
        Search
      </Button>
      <Tooltip label="Check at least one row" disabled={checkedCount > 0} withArrow>
        <Button
          variant="light"
          leftSection={<IconEdit size={16} />}
          disabled={checkedCount === 0}
          onClick={onMassiveEdit}
          fullWidth
          data-testid="disco-massive-edit"
        >
          {DISCO_TEXTS.goToMassiveEdit}
        </Button>
      </Tooltip>
      <Text fz="xs" c="dimmed" mt={-8} data-testid="disco-checked-count">
        {checkedCount === 1 ? '1 row checked' : `${checkedCount} rows checked`}
      </Text>
    </Stack>
  );
}
