import { Button, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconChevronsLeft, IconSearch } from '@tabler/icons-react';
import { FilterStep as Step, RefineStep } from '@/components/ui/filter-step';
import { PagedSelect } from '@/components/ui/paged-select';
import { currentMonth, formatMonthId, monthOptions } from '@/lib/format';
import { useHomeMonths } from '../api/get-months';
import { useLegoStatus } from '../hooks/use-lego-status';
import { useRefineOptions } from '../hooks/use-refine-options';
import { canSearch, REFINE_KEYS, REFINE_LABELS, type HomeSelection } from '../logic/home-selection';
import { LegoBadge } from './lego-badge';

const single = (values: readonly string[]) => (values.length === 1 ? values[0]! : null);

/**
 * The home filters (part 1 §2): step 1 'choose months' (one month, required), step 2 'refine your
 * search' (Planning Channel, Brand, collection, Stars zone; disabled until a month is chosen). Search
 * needs the month and one more filter; Enter also searches (see HomeScreen).
 */
export function HomeFilters({
  selection,
  onChange,
  onSearch,
  onClose,
}: {
  selection: HomeSelection;
  onChange: (next: HomeSelection) => void;
  onSearch: () => void;
  onClose: () => void;
}) {
  const { months: monthIds, options, loading, initialLoading } = useRefineOptions(selection);
  const monthStates = useHomeMonths().data;
  // Every month can be searched; closed ones say so (their items open read-only). Until the states are
  // in, the ids alone, formatted.
  const months = monthStates ? monthOptions(monthStates) : monthIds.map((m) => ({ value: m.value, label: formatMonthId(m.value) }));
  const lego = useLegoStatus(selection.monthId, single(selection.brand), single(selection.collection));
  const ready = canSearch(selection);

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Text fz="sm" fw={700} tt="uppercase" lts={0.8}>
          Search
        </Text>
        <UnstyledButton onClick={onClose} aria-label="Close Filter" data-testid="close-filter">
          <Group gap={4} c="dimmed">
            <IconChevronsLeft size={16} />
            <Text fz="xs" fw={600}>
              Close Filter
            </Text>
          </Group>
        </UnstyledButton>
      </Group>
      <Step n={1} title="choose months">
        <PagedSelect
          aria-label="Month"
          placeholder={initialLoading ? 'Loading months…' : 'Choose a month'}
          data={months}
          showValues={false}
          openAt={monthStates ? currentMonth(monthStates) : null}
          value={selection.monthId}
          onChange={(monthId) => onChange({ ...selection, monthId })}
          required
          data-testid="filter-month"
        />
      </Step>
      <RefineStep
        keys={REFINE_KEYS}
        labels={REFINE_LABELS}
        monthChosen={!!selection.monthId}
        options={(key) => options[key]}
        values={(key) => selection[key]}
        onChange={(key, values) => onChange({ ...selection, [key]: values })}
      >
        <Group gap="xs" h={22}>
          {loading && selection.monthId && <Loader size={12} />}
          <LegoBadge state={lego} />
        </Group>
      </RefineStep>
      <DisabledReason reason={!ready && (selection.monthId ? 'Choose at least one more filter' : 'Choose a month, then at least one more filter')}>
        <Button leftSection={<IconSearch size={16} />} onClick={onSearch} fullWidth data-testid="search-button">
          Search
        </Button>
      </DisabledReason>
      {!ready && (
        <Text fz="xs" c="dimmed" mt={-8}>
          {selection.monthId ? 'Choose at least one more filter.' : 'Choose a month, then at least one more filter.'}
        </Text>
      )}
    </Stack>
  );
}
