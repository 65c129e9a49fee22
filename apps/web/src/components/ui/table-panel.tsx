import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './data-table';
import { TableToolbar } from './table-toolbar';

/**
 * An administration list: a card with the toolbar (filters, and `actions` on the right) above the shared
 * DataTable; `children` are the list's popups.
 */
export function TablePanel<T>({ filters, actions, table, children }: { filters: ReactNode; actions?: ReactNode; table: DataTableProps<T>; children?: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="lg" shadow="xs">
      <TableToolbar actions={actions}>{filters}</TableToolbar>
      <DataTable {...table} />
      {children}
    </Paper>
  );
}

/** How many rows a list holds, once loaded ('12 users'). */
export function TableCount({ count, noun }: { count: number | undefined; noun: string }) {
  return (
    <Text fz="sm" c="dimmed">
      {count !== undefined ? `${count} ${noun}` : ''}
    </Text>
  );
}
