import { PresenceBadge } from '@/components/live/presence-badge';
import { Badge, Group, Paper, ScrollArea, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { PENDING_TEXTS, type PendingView } from '@bo/shared/pending-area';
import { PagedPager } from '@/components/ui/paged-pager';
import { SearchNotice, type SearchState } from '@/components/ui/search-notice';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatMonthId } from '@/lib/format';
import type { PendingItem } from '../logic/pending-rows';

export type PendingResultsState = SearchState;

/** Part 2 §9: the table header gets a shadow once the rows scrolled past 50 px. */
const SHADOW_AFTER_PX = 50;

/**
 * The Pending Area's results (part 2 §2, §8): BRAND, COMMODITY, STATUS, MODULE or CLUSTER (with the
 * LEGO badge) and MONTH; a click opens the item's page in a new tab; the pager below; the 413 and empty
 * texts in place of the table.
 */
export function PendingResults({
  view,
  state,
  items,
  page,
  pages,
  count,
  onPage,
  onOpen,
}: {
  view: PendingView;
  state: PendingResultsState;
  items: readonly PendingItem[];
  page: number;
  pages: number;
  count: number;
  onPage: (page: number) => void;
  onOpen: (item: PendingItem) => void;
}) {
  const [shadow, setShadow] = useState(false);
  const notice = (
    <SearchNotice
      state={state}
      empty={count === 0}
      testId="pending"
      idle="Choose at least one filter and press Search."
      emptyText={PENDING_TEXTS.empty}
      tooMany={{ title: PENDING_TEXTS.tooMany, hint: PENDING_TEXTS.tooManyHint }}
    />
  );
  if (state !== 'done' || count === 0) return notice;
  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed" data-testid="pending-count">
        {count} pending {view === 'module' ? 'module' : 'cluster'}
        {count === 1 ? '' : 's'}
      </Text>
      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        <ScrollArea.Autosize mah="calc(100dvh - 300px)" onScrollPositionChange={({ y }) => setShadow(y > SHADOW_AFTER_PX)}>
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" aria-label="Pending items" data-testid="pending-table">
            <Table.Thead style={{ position: 'sticky', top: 0, zIndex: 1, background: 'white', boxShadow: shadow ? 'var(--mantine-shadow-sm)' : undefined }}>
              <Table.Tr>
                <Table.Th>BRAND</Table.Th>
                <Table.Th>COMMODITY</Table.Th>
                <Table.Th>STATUS</Table.Th>
                <Table.Th>{view === 'module' ? 'MODULE' : 'CLUSTER'}</Table.Th>
                <Table.Th>MONTH</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr
                  key={item.key}
                  onClick={() => onOpen(item)}
                  onKeyDown={(e) => e.key === 'Enter' && onOpen(item)}
                  tabIndex={0}
                  style={{ cursor: 'pointer' }}
                  title="Open in a new tab"
                  data-testid={`pending-row-${item.name}`}
                >
                  <Table.Td>{item.brandCode}</Table.Td>
                  <Table.Td>{item.commodity}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <StatusBadge status={item.status} size="sm" />
                      {item.rpasErrors && (
                        <Tooltip label={item.rpasErrors.split(';').filter(Boolean).join('\n')} multiline maw={360} style={{ whiteSpace: 'pre-line' }} withArrow>
                          <IconAlertTriangle size={16} color="var(--mantine-color-red-6)" aria-label="Planning-system warnings" data-testid="pending-warnings" />
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={8} wrap="nowrap">
                      <Stack gap={0}>
                        <Text fz="sm" fw={500}>
                          {item.label}
                        </Text>
                        <Text fz="xs" c="dimmed">
                          {item.name}
                        </Text>
                      </Stack>
                      {item.legoMonth && (
                        <Badge variant="filled" color="grape" radius="sm" size="sm" data-testid="pending-lego">
                          LEGO
                        </Badge>
                      )}
                      <PresenceBadge item={{ kind: view, name: item.name, monthId: item.monthId }} />
                      {item.userLock && (
                        <Tooltip label={`Locked by ${item.userLock}`} withArrow>
                          <IconLock size={14} color="var(--mantine-color-gray-6)" aria-label={`Locked by ${item.userLock}`} />
                        </Tooltip>
                      )}
                      <IconExternalLink size={14} color="var(--mantine-color-gray-5)" aria-hidden />
                    </Group>
                  </Table.Td>
                  <Table.Td>{formatMonthId(item.monthId)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      </Paper>
      <PagedPager page={page} total={pages} onPage={onPage} testId="pending" />
    </Stack>
  );
}
