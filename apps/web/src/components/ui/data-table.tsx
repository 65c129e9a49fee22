import { ActionIcon, Center, Skeleton, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconDatabaseOff } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { ClientPager, useClientPages } from './paged-pager';

export interface DataTableColumn<T> {
  key: string;
  header: React.ReactNode;
  render: (row: T) => React.ReactNode;
  width?: number | string;
  align?: 'left' | 'center' | 'right';
}

export interface DataTableProps<T> {
  /** The rows to show, already filtered and sorted. */
  data: readonly T[];
  columns: readonly DataTableColumn<T>[];
  getRowKey: (row: T) => string | number;
  /** Accessible name of the table. */
  label: string;
  /** Rows per page (client-side paging); default 10. */
  pageSize?: number;
  /** Shown when there are no rows; default 'No Data Available' (part 2 §8). */
  emptyMessage?: React.ReactNode;
  loading?: boolean;
  /** When given, each row gets a chevron that opens this content below it. */
  renderExpanded?: (row: T) => React.ReactNode;
  /** Back to page 1 whenever this changes (e.g. the filter values). */
  resetPageKey?: unknown;
  /** data-testid of each row, for the browser tests. */
  rowTestId?: (row: T) => string;
}

const NO_DATA = 'No Data Available';

/**
 * The back office's table: client-side paging with a 'from–to of total' line, optional expandable
 * rows, a loading skeleton and an empty state. Filtering belongs to the screen (see TableToolbar).
 */
export function DataTable<T>({
  data,
  columns,
  getRowKey,
  label,
  pageSize = 10,
  emptyMessage = NO_DATA,
  loading = false,
  renderExpanded,
  resetPageKey,
  rowTestId,
}: DataTableProps<T>) {
  const paging = useClientPages(data, pageSize, resetPageKey);
  const [expanded, setExpanded] = useState<ReadonlySet<string | number>>(new Set());

  const toggle = (key: string | number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const { visible } = paging;
  const span = columns.length + (renderExpanded ? 1 : 0);

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={720}>
        <Table aria-label={label} verticalSpacing="sm" horizontalSpacing="md" highlightOnHover striped={false} stickyHeader>
          <Table.Thead>
            <Table.Tr>
              {renderExpanded && <Table.Th w={44} aria-label="Expand" />}
              {columns.map((c) => (
                <Table.Th key={c.key} w={c.width} ta={c.align} fz="xs" tt="uppercase" c="dimmed" fw={700} style={{ letterSpacing: 0.6 }}>
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading &&
              Array.from({ length: Math.min(pageSize, 5) }, (_, i) => (
                <Table.Tr key={`loading-${i}`}>
                  {Array.from({ length: span }, (__, j) => (
                    <Table.Td key={j}>
                      <Skeleton h={14} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            {!loading && visible.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={span}>
                  <TableEmpty message={emptyMessage} />
                </Table.Td>
              </Table.Tr>
            )}
            {!loading &&
              visible.map((row) => {
                const key = getRowKey(row);
                const open = expanded.has(key);
                return (
                  <Fragment key={key}>
                    <Table.Tr data-testid={rowTestId?.(row)} bg={open ? 'var(--mantine-color-brand-0)' : undefined}>
                      {renderExpanded && (
                        <Table.Td>
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            onClick={() => toggle(key)}
                            aria-label={open ? 'Collapse row' : 'Expand row'}
                            aria-expanded={open}
                          >
                            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                          </ActionIcon>
                        </Table.Td>
                      )}
                      {columns.map((c) => (
                        <Table.Td key={c.key} ta={c.align}>
                          {c.render(row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                    {renderExpanded && open && (
                      <Table.Tr bg="var(--mantine-color-gray-0)">
                        <Table.Td colSpan={span} px="xl" py="md">
                          {renderExpanded(row)}
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!loading && data.length > 0 && <ClientPager paging={paging} count={data.length} pageSize={pageSize} testId="table" hideWithOnePage />}
    </Stack>
  );
}

/** What an empty table shows in its one cell: an icon and the message. */
export function TableEmpty({ message }: { message: React.ReactNode }) {
  return (
    <Center py={40}>
      <Stack align="center" gap="xs">
        <ThemeIcon size={44} radius="xl" variant="light" color="gray">
          <IconDatabaseOff size={22} stroke={1.6} />
        </ThemeIcon>
        <Text c="dimmed" fz="sm" data-testid="table-empty">
          {message}
        </Text>
      </Stack>
    </Center>
  );
}
