import { Badge, Box, Button, Checkbox, CloseButton, Group, Menu, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconCheck, IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { SelectableRow } from '@/components/ui/selectable-row';
import { VirtualList } from '@/components/ui/virtual-list';
import { FIRST_DIRECTION, nextSort, SORT_LABELS, sortItems, type Sortable, type SortKey, type SortState } from '../logic/sort-items';

export interface ResultColumnProps<T> {
  title: string;
  items: readonly T[];
  getKey: (item: T) => string;
  /** Text the column's own filter searches. */
  getText: (item: T) => string;
  renderRow: (item: T, selected: boolean, toggle: () => void) => React.ReactNode;
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  /** Selection cap (clusters: 30); rows past it cannot be ticked. */
  maxSelected?: number;
  /** The column's main buttons (open …), left under the title. */
  actions?: React.ReactNode;
  /** Its icon buttons (delete, create), right under the title. */
  tools?: React.ReactNode;
  rowHeight?: number;
  emptyText?: string;
  testId: string;
  /** The orders the column offers, the first one to start with; with `getSortable`. */
  sortKeys?: readonly SortKey[];
  getSortable?: (item: T) => Sortable;
  /** A column's own name for an order ('default' is the server's order). */
  sortLabels?: Partial<Record<SortKey, string>>;
}

/** The column's order: a menu of the offered orders; choosing the one in use flips its direction. */
function SortMenu({ keys, labels, sort, onChange, testId }: { keys: readonly SortKey[]; labels: Record<SortKey, string>; sort: SortState; onChange: (next: SortState) => void; testId: string }) {
  const Arrow = sort.direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Menu position="bottom-end" withinPortal shadow="md" radius="md">
      <Menu.Target>
        <Button
          size="compact-xs"
          variant="subtle"
          color="gray"
          leftSection={<IconArrowsSort size={13} />}
          rightSection={sort.key === 'default' ? null : <Arrow size={12} />}
          aria-label={`Sort by ${labels[sort.key]}${sort.key === 'default' ? '' : sort.direction === 'asc' ? ', ascending' : ', descending'}`}
          data-testid={`${testId}-sort`}
          data-sort={`${sort.key}-${sort.direction}`}
          style={{ flexShrink: 0 }}
        >
          {labels[sort.key]}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Sort by</Menu.Label>
        {keys.map((key) => (
          <Menu.Item
            key={key}
            leftSection={key === sort.key ? <IconCheck size={14} /> : <Box w={14} />}
            onClick={() => onChange(nextSort(sort, key))}
            data-testid={`${testId}-sort-${key}`}
          >
            {labels[key]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * One of the three result columns of home: title, counter, a filter over its rows, select-all and a
 * virtualised list (thousands of rows stay responsive). The filter is reset when the list changes
 * ("filter popup states are reset when the list changes": other items, not the same items refreshed live).
 */
export function ResultColumn<T>({
  title,
  items,
  getKey,
  getText,
  renderRow,
  selected,
  onSelectedChange,
  maxSelected,
  actions,
  tools,
  rowHeight = 58,
  emptyText = 'Nothing here',
  testId,
  sortKeys,
  getSortable,
  sortLabels,
}: ResultColumnProps<T>) {
  const [filter, setFilter] = useState('');
  // A new list (another search) resets the filter; the same items answered again (a live refresh: a lock, a
  // status) keep it, so a planner's filter survives what colleagues do meanwhile.
  const itemKeys = items.map(getKey).join('\n');
  useEffect(() => setFilter(''), [itemKeys]);
  const firstKey = sortKeys?.[0] ?? 'default';
  const [sort, setSort] = useState<SortState>({ key: firstKey, direction: FIRST_DIRECTION[firstKey] });
  const sorted = useMemo(() => (getSortable ? sortItems(items, sort, getSortable) : items), [items, sort, getSortable]);
  const visible = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? sorted.filter((item) => getText(item).toLowerCase().includes(q)) : sorted;
  }, [sorted, filter, getText]);

  const visibleKeys = visible.map(getKey);
  const allSelectable = maxSelected === undefined || visibleKeys.length <= maxSelected;
  const allChecked = visibleKeys.length > 0 && visibleKeys.every((k) => selected.has(k));
  const someChecked = visibleKeys.some((k) => selected.has(k));
  const toggleAll = () => {
    const next = new Set(selected);
    if (allChecked) visibleKeys.forEach((k) => next.delete(k));
    else visibleKeys.forEach((k) => next.add(k));
    onSelectedChange(next);
  };
  const toggle = (key: string) => {
    const next = new Set(selected);
    if (next.has(key)) next.delete(key);
    else if (maxSelected === undefined || next.size < maxSelected) next.add(key);
    onSelectedChange(next);
  };

  return (
    <Paper withBorder radius="lg" shadow="xs" style={{ display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0, overflow: 'hidden' }} data-testid={testId}>
      <Stack gap={8} p="md" pb="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
        <Group gap={8} wrap="nowrap">
          <Text fw={700} fz="sm" truncate title={title}>
            {title}
          </Text>
          <Badge variant="light" color="gray" radius="sm" style={{ flexShrink: 0 }} data-testid={`${testId}-count`}>
            {items.length.toLocaleString('it-IT')}
          </Badge>
          <Group gap={4} wrap="nowrap" ml="auto" style={{ flexShrink: 0 }}>
            {tools}
          </Group>
        </Group>
        <Group gap="xs" wrap="nowrap" mih={28}>
          {actions}
          {selected.size > 0 && (
            <Text fz="xs" c="brand.7" fw={600} ml="auto" style={{ whiteSpace: 'nowrap' }}>
              {selected.size} selected
            </Text>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Checkbox
            aria-label={`Select all in ${title}`}
            checked={allChecked}
            indeterminate={!allChecked && someChecked}
            disabled={visible.length === 0 || !allSelectable}
            onChange={toggleAll}
            size="xs"
          />
          <TextInput
            size="xs"
            radius="md"
            placeholder="Filter this list"
            aria-label={`Filter ${title}`}
            leftSection={<IconSearch size={13} />}
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            rightSection={filter ? <CloseButton size="xs" aria-label="Clear filter" onClick={() => setFilter('')} /> : null}
            style={{ flex: 1, minWidth: 0 }}
          />
          {sortKeys && getSortable && <SortMenu keys={sortKeys} labels={{ ...SORT_LABELS, ...sortLabels }} sort={sort} onChange={setSort} testId={testId} />}
        </Group>
      </Stack>
      <Box style={{ flex: 1, minHeight: 0 }}>
        {visible.length === 0 ? (
          <Text c="dimmed" fz="sm" ta="center" py="xl">
            {emptyText}
          </Text>
        ) : (
          <VirtualList
            items={visible}
            rowHeight={rowHeight}
            getKey={(item) => getKey(item)}
            renderRow={(item) => {
              const key = getKey(item);
              return renderRow(item, selected.has(key), () => toggle(key));
            }}
            data-testid={`${testId}-list`}
            aria-label={title}
          />
        )}
      </Box>
    </Paper>
  );
}

/** The row frame every column uses: checkbox, content, trailing icons. */
export function ResultRow({
  selected,
  onToggle,
  disabled,
  children,
  trailing,
  label,
  testId,
}: {
  selected: boolean;
  onToggle: () => void;
  disabled?: boolean;
  children: React.ReactNode;
  trailing?: React.ReactNode;
  label: string;
  testId?: string;
}) {
  return (
    <SelectableRow selected={selected} onToggle={onToggle} disabled={disabled} label={label} testId={testId}>
      <Box style={{ flex: 1, minWidth: 0 }}>{children}</Box>
      {trailing && (
        <Group gap={4} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          {trailing}
        </Group>
      )}
    </SelectableRow>
  );
}
