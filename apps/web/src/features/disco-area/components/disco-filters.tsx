import { Button, Text } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconEdit } from '@tabler/icons-react';
import { DISCO_TEXTS, type DiscoFilterKey, type DiscoFilterOptions, type DiscoFilters as Filters, type DiscoView } from '@bo/shared/disco-area';
import { AreaFilters, type AreaFilterField, type AreaFilterState } from '@/components/ui/area-filters';
import { formatMonthId } from '@/lib/format';

const FILTERS: readonly AreaFilterField<DiscoFilterKey>[] = [
  { key: 'brandCode', label: 'Brand', showValues: true },
  { key: 'commodity', label: 'Commodity' },
  { key: 'months', label: 'Months' },
  { key: 'type', label: 'Type' },
  { key: 'moduleLabel', label: 'Module' },
  { key: 'materialCode', label: 'Model' },
  { key: 'skuCode', label: 'Grid' },
  { key: 'upc', label: 'UPC' },
  { key: 'planningChannel', label: 'Planning channel', showValues: true },
  { key: 'starsZones', label: 'Stars zones', showValues: true },
  { key: 'storeCount', label: 'Store count' },
];

const VIEWS: readonly { value: DiscoView; label: string }[] = [
  { value: 'disco', label: DISCO_TEXTS.discoArea },
  { value: 'removed', label: DISCO_TEXTS.removedArea },
];

const shown = (key: DiscoFilterKey, o: { value: string; label: string }) => (key === 'months' ? { value: o.value, label: formatMonthId(o.value) } : o);

/**
 * The Disco/Removed Area sidebar (part 2 §2, §5): the 'Disco Area' / 'Removed Area' switch, the disco
 * filters (options found among the caller's rows, narrowed by the other choices), Search, and
 * 'GO TO MASSIVE EDIT', disabled until a row is checked.
 */
export function DiscoFilters({
  checkedCount,
  onMassiveEdit,
  ...area
}: AreaFilterState<DiscoView, Filters, DiscoFilterOptions> & { checkedCount: number; onMassiveEdit: () => void }) {
  return (
    <AreaFilters
      {...area}
      testId="disco"
      title="Disco / Removed"
      views={VIEWS}
      fields={FILTERS}
      shown={shown}
      nothingFound="No row has one"
      onChange={(f) => area.onChange(f as Filters)}
    >
      <DisabledReason reason={checkedCount === 0 && 'Check at least one row'}>
        <Button variant="light" leftSection={<IconEdit size={16} />} onClick={onMassiveEdit} fullWidth data-testid="disco-massive-edit">
          {DISCO_TEXTS.goToMassiveEdit}
        </Button>
      </DisabledReason>
      <Text fz="xs" c="dimmed" mt={-8} data-testid="disco-checked-count">
        {checkedCount === 1 ? '1 row checked' : `${checkedCount} rows checked`}
      </Text>
    </AreaFilters>
  );
}
