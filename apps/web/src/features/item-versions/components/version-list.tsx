import { ActionIcon, Badge, Center, Group, Loader, Table, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { ACTION_LABELS, type HistoryPage, type VersionAction } from '@bo/shared/item-versions';
import { formatDateTime } from '@/lib/format';

const ACTION_COLORS: Partial<Record<VersionAction, string>> = { publish: 'teal', revert: 'grape', massiveEdit: 'orange', import: 'cyan', copy: 'indigo', release: 'gray', create: 'blue' };

/**
 * The versions of an item, newest first: number, action, user, date and time (Italian format) and the one-line summary
 * against the previous version; a click picks a version; the server pages them (HISTORY_PAGE_SIZE a page).
 */
export function VersionList({
  page,
  loading,
  error,
  selected,
  onSelect,
  onPage,
}: {
  page: HistoryPage | undefined;
  loading: boolean;
  error: string | null;
  selected: number | null;
  onSelect: (version: number) => void;
  onPage: (page: number) => void;
}) {
  if (error)
    return (
      <Text c="red.9" fz="sm" data-testid="history-error">
        {error}
      </Text>
    );
  if (!page)
    return (
      <Center h={120}>
        <Loader size="sm" />
      </Center>
    );
  if (page.totalElements === 0)
    return (
      <Text c="dimmed" fz="sm" data-testid="history-empty">
        No version recorded yet.
      </Text>
    );
  return (
    <div>
      <Table highlightOnHover verticalSpacing={4} fz="xs" data-testid="history-list" style={{ opacity: loading ? 0.6 : 1 }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={44}>#</Table.Th>
            <Table.Th w={170}>Action</Table.Th>
            <Table.Th w={100}>User</Table.Th>
            <Table.Th w={120}>Date</Table.Th>
            <Table.Th>Changes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page.content.map((e) => (
            <Table.Tr
              key={e.version}
              onClick={() => onSelect(e.version)}
              onKeyDown={(ev) => (ev.key === 'Enter' || ev.key === ' ') && onSelect(e.version)}
              tabIndex={0}
              aria-selected={selected === e.version}
              bg={selected === e.version ? 'var(--mantine-color-blue-light)' : undefined}
              style={{ cursor: 'pointer' }}
              data-testid="history-row"
              data-version={e.version}
              data-action={e.action}
            >
              <Table.Td fw={700}>{e.version}</Table.Td>
              <Table.Td>
                <Badge size="xs" variant="light" color={ACTION_COLORS[e.action] ?? 'blue'} tt="none">
                  {ACTION_LABELS[e.action]}
                  {e.action === 'revert' && e.revertOf !== null ? ` ${e.revertOf}` : ''}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text fz="xs" truncate>
                  {e.user}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</Table.Td>
              <Table.Td data-testid="history-summary">{e.summary}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {page.totalPages > 1 && (
        <Group justify="flex-end" gap={4} mt={4} data-testid="history-pager">
          <ActionIcon variant="subtle" size="sm" aria-label="Newer versions" disabled={page.number <= 0} onClick={() => onPage(page.number - 1)}>
            <IconChevronLeft size={14} />
          </ActionIcon>
          <Text fz="xs" data-testid="history-page">
            Page {page.number + 1} / {page.totalPages} · {page.totalElements} versions
          </Text>
          <ActionIcon variant="subtle" size="sm" aria-label="Older versions" disabled={page.number >= page.totalPages - 1} onClick={() => onPage(page.number + 1)}>
            <IconChevronRight size={14} />
          </ActionIcon>
        </Group>
      )}
    </div>
  );
}

/** An API failure as the panel says it. */
export const failureText = (error: unknown) => (error instanceof Error && error.message ? error.message : 'The history could not be read.');
