import { Button, Checkbox, Group, Loader, Radio, Stack, Text } from '@mantine/core';
import { IconFileTypePdf, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EXPORT_FILTER_LABELS, EXPORT_SEARCH_TEXTS, EXPORT_SEARCH_STATUSES, type ExportFilterKey } from '@bo/shared/export-search';
import { FilterStep, RefineStep } from '@/components/ui/filter-step';
import { PagedSelect } from '@/components/ui/paged-select';
import { paths } from '@/config/paths';
import { formatMonthId } from '@/lib/format';
import { useExportFilters } from '../api/get-export-filters';
import { canSearch, optionsWithChosen, REFINE_EXPORT_KEYS, toRequest, toggleStatus, type ExportKind, type ExportSelection } from '../logic/export-search';

const MONTH_ONLY: readonly ExportFilterKey[] = ['monthId'];
const ALL_KEYS: readonly ExportFilterKey[] = ['monthId', ...REFINE_EXPORT_KEYS];

/** Text filters (contains) take at most 50 values (the search body's limit). */
const MAX_VALUES: Partial<Record<ExportFilterKey, number>> = { moduleLabel: 50, clusterLabel: 50 };

/**
 * The Export Data sidebar (part 2 §2, §3 "Export filters", §5): type of results, status checkboxes
 * (Published by default, Saved), the 'PDF FILES' link, step 1 the months, step 2 the other filters
 * (disabled until a month is chosen) whose options narrow each other, and Search (also disabled until a
 * month is chosen).
 */
export function ExportFilters({ selection, onChange, onSearch }: { selection: ExportSelection; onChange: (next: ExportSelection) => void; onSearch: () => void }) {
  const monthChosen = selection.filters.monthId.length > 0;
  const options = useExportFilters(selection.kind, toRequest(selection), monthChosen ? ALL_KEYS : MONTH_ONLY);
  const setFilter = (key: ExportFilterKey, values: string[]) => onChange({ ...selection, filters: { ...selection.filters, [key]: values } });
  const ready = canSearch(selection);

  return (
    <Stack gap="lg" data-testid="export-filters">
      <Group justify="space-between" align="center">
        <Text fz="sm" fw={700} tt="uppercase" lts={0.8}>
          Export
        </Text>
        <Button component={Link} to={paths.pdfArea.path} size="compact-sm" variant="light" leftSection={<IconFileTypePdf size={14} />} data-testid="pdf-files-link">
          PDF FILES
        </Button>
      </Group>
      <Radio.Group label="Type of results" value={selection.kind} onChange={(kind) => onChange({ ...selection, kind: kind as ExportKind })} data-testid="export-kind">
        <Group gap="lg" mt={6}>
          <Radio value="module" label="Module" data-testid="kind-module" />
          <Radio value="cluster" label="Cluster" data-testid="kind-cluster" />
        </Group>
      </Radio.Group>
      <Stack gap={6}>
        <Text fz="sm" fw={500}>
          Status
        </Text>
        <Group gap="lg">
          {EXPORT_SEARCH_STATUSES.map((status) => (
            <Checkbox
              key={status}
              label={status}
              checked={selection.statuses.includes(status)}
              onChange={(e) => onChange({ ...selection, statuses: toggleStatus(selection.statuses, status, e.currentTarget.checked) })}
              data-testid={`status-${status}`}
            />
          ))}
        </Group>
      </Stack>
      <FilterStep n={1} title="choose months">
        <PagedSelect
          multiple
          aria-label="Month"
          placeholder={options.isLoading ? 'Loading months…' : 'Choose a month'}
          data={optionsWithChosen('monthId', options.data, selection.filters.monthId).map((o) => ({ value: o.value, label: formatMonthId(o.value) }))}
          showValues={false}
          value={selection.filters.monthId}
          onChange={(values) => setFilter('monthId', values)}
          nothingFound="No month with items to export"
          required
          data-testid="filter-monthId"
        />
      </FilterStep>
      <RefineStep
        keys={REFINE_EXPORT_KEYS}
        labels={EXPORT_FILTER_LABELS}
        monthChosen={monthChosen}
        options={(key) => (monthChosen ? optionsWithChosen(key, options.data, selection.filters[key]) : [])}
        values={(key) => selection.filters[key]}
        onChange={setFilter}
        maxValues={MAX_VALUES}
      >
        <Group gap="xs" h={16}>
          {options.isFetching && monthChosen && <Loader size={12} />}
        </Group>
      </RefineStep>
      <Button leftSection={<IconSearch size={16} />} onClick={onSearch} disabled={!ready} fullWidth data-testid="search-button">
        Search
      </Button>
      {!ready && (
        <Text fz="xs" c="dimmed" mt={-8}>
          {EXPORT_SEARCH_TEXTS.chooseMonth}
        </Text>
      )}
    </Stack>
  );
}
