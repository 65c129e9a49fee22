import { Button, Group, Loader, RangeSlider, Stack, Text } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconRestore, IconSearch } from '@tabler/icons-react';
import { STATISTIC_FIELD_LABELS, STATISTIC_MAX, STATISTIC_MIN, STATISTICS_TEXTS, type StatisticFilterOptions } from '@bo/shared/statistics';
import { categoriesOf, rangeOf, sliderKey, type Range, type SliderRanges } from '../logic/sliders';

const percent = (v: number) => `${v}%`;
/** A tick at 50 % only: labels under every slider would crowd the sidebar (the range is written above it). */
const MARKS = [{ value: 50 }];

/**
 * The Statistics sidebar (part 2 §2, §5, §9): one range slider (0–100 %, thumbs never cross) per value,
 * grouped by category; Reset all and Search, both enabled only once a slider moved.
 */
export function StatisticSliders({
  options,
  loading,
  ranges,
  moved,
  onChange,
  onReset,
  onSearch,
}: {
  options: StatisticFilterOptions | undefined;
  loading: boolean;
  ranges: SliderRanges;
  moved: boolean;
  onChange: (key: string, range: Range) => void;
  onReset: () => void;
  onSearch: () => void;
}) {
  const categories = options ? categoriesOf(options) : [];
  return (
    <Stack gap="lg" data-testid="statistic-sliders">
      <Text fz="sm" fw={700} tt="uppercase" lts={0.8}>
        Share of active SKUs
      </Text>
      {loading && (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      )}
      {!loading && options && categories.length === 0 && (
        <Text fz="sm" c="dimmed" data-testid="statistic-no-options">
          {STATISTICS_TEXTS.noOptions}
        </Text>
      )}
      {categories.map(({ field, options: values }) => (
        <Stack key={field} gap="sm" data-testid={`statistic-category-${field}`}>
          <Text fz="xs" fw={700} c="dimmed" tt="uppercase" lts={0.6}>
            {STATISTIC_FIELD_LABELS[field]}
          </Text>
          {values.map((option) => {
            const key = sliderKey(field, option.value);
            const [min, max] = rangeOf(ranges, key);
            const changed = min !== STATISTIC_MIN || max !== STATISTIC_MAX;
            return (
              <Stack key={key} gap={6} pb={4}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text fz="sm" fw={changed ? 600 : 400} truncate>
                    {option.label}
                  </Text>
                  <Text fz="xs" c={changed ? 'blue.7' : 'dimmed'} ff="monospace" data-testid={`statistic-range-${field}-${option.value}`}>
                    {percent(min)} – {percent(max)}
                  </Text>
                </Group>
                <RangeSlider
                  mx={6}
                  color={changed ? 'blue' : 'gray.5'}
                  min={STATISTIC_MIN}
                  max={STATISTIC_MAX}
                  step={1}
                  minRange={0}
                  value={[min, max]}
                  onChange={(v) => onChange(key, v)}
                  label={percent}
                  marks={MARKS}
                  size="sm"
                  thumbFromLabel={`${option.label} from`}
                  thumbToLabel={`${option.label} to`}
                  data-testid={`statistic-slider-${field}-${option.value}`}
                />
              </Stack>
            );
          })}
        </Stack>
      ))}
      <Group
        grow
        gap="sm"
        py="sm"
        style={{ position: 'sticky', bottom: 0, zIndex: 10, background: 'var(--mantine-color-white)', borderTop: '1px solid var(--mantine-color-gray-2)' }}
      >
        <DisabledReason reason={!moved && 'Move a slider first'}>
          <Button variant="default" leftSection={<IconRestore size={16} />} onClick={onReset} data-testid="statistic-reset">
            {STATISTICS_TEXTS.resetAll}
          </Button>
        </DisabledReason>
        <DisabledReason reason={!moved && 'Move a slider first'}>
          <Button leftSection={<IconSearch size={16} />} onClick={onSearch} data-testid="statistic-search">
            {STATISTICS_TEXTS.search}
          </Button>
        </DisabledReason>
      </Group>
    </Stack>
  );
}
