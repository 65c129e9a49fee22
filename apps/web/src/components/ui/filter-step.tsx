import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { PagedSelect, type PagedSelectOption } from './paged-select';

/** A numbered step of a filter sidebar ('1 choose months', '2 refine your search'): home and Export Data. */
export function FilterStep({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <Stack gap={8}>
      <Group gap={8}>
        <ThemeIcon size={22} radius="xl" variant="filled">
          <Text fz={12} fw={700}>
            {n}
          </Text>
        </ThemeIcon>
        <Text fz="xs" fw={700} c="dimmed" tt="uppercase" lts={0.8}>
          {title}
        </Text>
      </Group>
      {children}
    </Stack>
  );
}

/**
 * Step 2 of a filter sidebar, 'refine your search' (home and Export Data): one multi-select per filter,
 * off until a month is chosen; `children` go below them.
 */
export function RefineStep<K extends string>({
  keys,
  labels,
  monthChosen,
  options,
  values,
  onChange,
  maxValues,
  children,
}: {
  keys: readonly K[];
  labels: Record<K, string>;
  monthChosen: boolean;
  options: (key: K) => readonly PagedSelectOption[];
  values: (key: K) => string[];
  onChange: (key: K, values: string[]) => void;
  maxValues?: Partial<Record<K, number>>;
  children?: React.ReactNode;
}) {
  return (
    <FilterStep n={2} title="refine your search">
      <Stack gap="sm">
        {keys.map((key) => (
          <PagedSelect
            key={key}
            multiple
            label={labels[key]}
            placeholder={monthChosen ? 'All' : 'Choose a month first'}
            data={options(key)}
            value={values(key)}
            onChange={(chosen) => onChange(key, chosen)}
            disabled={!monthChosen}
            maxValues={maxValues?.[key]}
            data-testid={`filter-${key}`}
          />
        ))}
        {children}
      </Stack>
    </FilterStep>
  );
}
