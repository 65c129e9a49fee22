import { Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { DisabledReason } from './disabled-reason';
import { PagedSelect, type PagedSelectOption } from './paged-select';

export interface AreaFilterField<K extends string> {
  key: K;
  label: string;
  /** Show each option's value beside its label (codes such as brands). */
  showValues?: boolean;
}

/** What an area's screen hands its sidebar: the view, the filters and their options, and the callbacks. */
export interface AreaFilterState<V extends string, F, O> {
  view: V;
  filters: F;
  options: O | undefined;
  loading: boolean;
  onViewChange: (view: V) => void;
  onChange: (filters: F) => void;
  onSearch: () => void;
}

/**
 * The sidebar of a work area (Pending, Disco/Removed): its title, the switch between its two views, one
 * multi-select per filter (options found among the caller's rows), Search, and what the area adds below.
 * `testId` prefixes the test ids: `<testId>-filters`, `-view`, `-filter-<key>`, `-search`.
 */
export function AreaFilters<K extends string, V extends string>({
  testId,
  title,
  view,
  views,
  onViewChange,
  fields,
  filters,
  options,
  shown = (_key, o) => o,
  loading,
  nothingFound,
  onChange,
  onSearch,
  searchDisabled = false,
  children,
}: {
  testId: string;
  title: string;
  view: V;
  views: readonly { value: V; label: string }[];
  onViewChange: (view: V) => void;
  fields: readonly AreaFilterField<K>[];
  filters: Partial<Record<K, string[]>>;
  options: Partial<Record<K, readonly PagedSelectOption[]>> | undefined;
  /** How an option reads (months as mm/yyyy, statuses by their label). */
  shown?: (key: K, option: PagedSelectOption) => PagedSelectOption;
  loading: boolean;
  nothingFound: string;
  onChange: (filters: Partial<Record<K, string[]>>) => void;
  onSearch: () => void;
  /** Search waits for something: the reason its tooltip and description give (components/ui/disabled-reason.tsx). */
  searchDisabled?: string | false;
  children?: ReactNode;
}) {
  return (
    <Stack gap="lg" data-testid={`${testId}-filters`}>
      <Text fz="sm" fw={700} tt="uppercase" lts={0.8}>
        {title}
      </Text>
      <SegmentedControl fullWidth value={view} onChange={(v) => onViewChange(v as V)} data={[...views]} data-testid={`${testId}-view`} />
      <Stack gap="sm">
        {fields.map(({ key, label, showValues }) => (
          <PagedSelect
            key={key}
            multiple
            label={label}
            placeholder={loading ? 'Loading…' : 'All'}
            data={(options?.[key] ?? []).map((o) => shown(key, o))}
            showValues={showValues}
            value={filters[key] ?? []}
            onChange={(values) => onChange({ ...filters, [key]: values })}
            nothingFound={nothingFound}
            data-testid={`${testId}-filter-${key}`}
          />
        ))}
      </Stack>
      <DisabledReason reason={searchDisabled}>
        <Button leftSection={<IconSearch size={16} />} onClick={onSearch} fullWidth data-testid={`${testId}-search`}>
          Search
        </Button>
      </DisabledReason>
      {children}
    </Stack>
  );
}
