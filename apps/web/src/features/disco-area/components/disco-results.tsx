import { PresenceBadge } from '@/components/live/presence-badge';
import { ActionIcon, Badge, Checkbox, Group, Paper, ScrollArea, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertOctagon, IconExternalLink, IconLock, IconReplace } from '@tabler/icons-react';
import { DISCO_TEXTS, SUPER_DISCO, type DiscoRow, type DiscoView } from '@bo/shared/disco-area';
import { PagedPager } from '@/components/ui/paged-pager';
import { SearchNotice, type SearchState } from '@/components/ui/search-notice';
import { formatDate, formatMonthId } from '@/lib/format';
import { rowKey } from '../logic/disco-rows';

export type DiscoResultsState = Exclude<SearchState, 'tooMany'>;

/**
 * The Disco/Removed Area's results (part 2 §2, §3, §4, §8): one row per SKU, module and month with a
 * check box (all start checked; the page header checks or clears the page), the 'Super discontinued SKU'
 * icon, the module (its lock owner when another user edits it: a click asks to unlock; otherwise a click
 * opens it in a new tab), the pager with 'Total Skus: n, skus per page: m', and the empty text.
 * Discontinued rows offer the guided replacement.
 */
export function DiscoResults({
  view,
  state,
  rows,
  count,
  pageSize,
  page,
  pages,
  isChecked,
  me,
  onCheck,
  onPage,
  onOpenModule,
  onUnlockModule,
  onReplace,
}: {
  view: DiscoView;
  state: DiscoResultsState;
  rows: readonly DiscoRow[];
  count: number;
  pageSize: number;
  page: number;
  pages: number;
  isChecked: (row: DiscoRow) => boolean;
  me: string;
  onCheck: (rows: readonly DiscoRow[], checked: boolean) => void;
  onPage: (page: number) => void;
  onOpenModule: (row: DiscoRow) => void;
  onUnlockModule: (row: DiscoRow) => void;
  onReplace: (row: DiscoRow) => void;
}) {
  if (state !== 'done' || count === 0) {
    return <SearchNotice state={state} empty={count === 0} testId="disco" idle="Choose filters if you like and press Search." emptyText={DISCO_TEXTS.empty} />;
  }
  const checkedOnPage = rows.filter(isChecked).length;
  const lockedByOther = (r: DiscoRow) => r.locked && !!r.userLock && r.userLock.toLowerCase() !== me.toLowerCase();
  return (
    <Stack gap="sm">
      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        {/* The scrollbars show whenever the table is wider or taller than its card (at 1024 px with the sidebar docked). */}
        <ScrollArea.Autosize mah="calc(100dvh - 300px)" type="auto" offsetScrollbars>
          <Table
            highlightOnHover
            verticalSpacing="xs"
            horizontalSpacing="sm"
            miw={820}
            style={{ whiteSpace: 'nowrap' }}
            aria-label="Discontinued and removed SKUs"
            data-testid="disco-table"
          >
            <Table.Thead style={{ position: 'sticky', top: 0, zIndex: 1, background: 'white', whiteSpace: 'normal' }}>
              <Table.Tr>
                <Table.Th w={36}>
                  <Checkbox
                    aria-label="Check the rows of this page"
                    checked={checkedOnPage === rows.length && rows.length > 0}
                    indeterminate={checkedOnPage > 0 && checkedOnPage < rows.length}
                    onChange={(e) => onCheck(rows, e.currentTarget.checked)}
                    data-testid="disco-check-page"
                  />
                </Table.Th>
                <Table.Th>UPC / TYPE</Table.Th>
                <Table.Th>MODULE</Table.Th>
                <Table.Th>MONTH</Table.Th>
                <Table.Th>MODEL / GRID</Table.Th>
                <Table.Th>BRAND / COMMODITY</Table.Th>
                <Table.Th>GED EXPIRY</Table.Th>
                {view === 'disco' && <Table.Th>REPLACE</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const other = lockedByOther(row);
                return (
                  <Table.Tr key={rowKey(row)} data-testid={`disco-row-${row.upc}-${row.moduleName}-${row.monthId}`}>
                    <Table.Td>
                      <Checkbox aria-label={`Check ${row.upc} in ${row.moduleLabel}`} checked={isChecked(row)} onChange={(e) => onCheck([row], e.currentTarget.checked)} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Text fz="sm" ff="monospace">
                          {row.upc}
                        </Text>
                        {row.type === SUPER_DISCO && (
                          <Tooltip label={DISCO_TEXTS.superDisco} withArrow>
                            <IconAlertOctagon size={16} color="var(--mantine-color-red-7)" aria-label={DISCO_TEXTS.superDisco} data-testid="super-disco" />
                          </Tooltip>
                        )}
                      </Group>
                      <Badge mt={2} variant="light" color={row.type === SUPER_DISCO ? 'red' : view === 'removed' ? 'orange' : 'gray'} radius="sm" size="sm" style={{ minWidth: 'max-content' }}>
                        {row.type}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group
                        gap={8}
                        wrap="nowrap"
                        role="button"
                        tabIndex={0}
                        style={{ cursor: 'pointer' }}
                        title={other ? DISCO_TEXTS.editing(row.userLock!) : 'Open in a new tab'}
                        onClick={() => (other ? onUnlockModule(row) : onOpenModule(row))}
                        onKeyDown={(e) => e.key === 'Enter' && (other ? onUnlockModule(row) : onOpenModule(row))}
                        data-testid="disco-module"
                      >
                        <Stack gap={0} maw={240} style={{ whiteSpace: 'normal' }}>
                          <Text fz="sm" fw={500}>
                            {row.moduleLabel}
                          </Text>
                          <Text fz="xs" c="dimmed">
                            {other ? DISCO_TEXTS.editing(row.userLock!) : row.moduleName}
                          </Text>
                        </Stack>
                        <PresenceBadge item={{ kind: 'module', name: row.moduleName, monthId: row.monthId }} />
                        {row.legoMonth && (
                          <Badge variant="filled" color="grape" radius="sm" size="sm" style={{ minWidth: 'max-content' }}>
                            LEGO
                          </Badge>
                        )}
                        {other ? (
                          <IconLock size={14} color="var(--mantine-color-orange-7)" aria-label={DISCO_TEXTS.editing(row.userLock!)} data-testid="disco-lock" />
                        ) : (
                          <IconExternalLink size={14} color="var(--mantine-color-gray-5)" aria-hidden />
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{formatMonthId(row.monthId)}</Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text fz="sm">{row.materialCode}</Text>
                        <Text fz="xs" c="dimmed" ff="monospace">
                          {row.skuCode}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text fz="sm">{row.brandCode}</Text>
                        <Text fz="xs" c="dimmed">
                          {row.commodity}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      {row.gedExpiryDate ? (
                        <Stack gap={2} align="flex-start">
                          <Text fz="sm">{formatDate(row.gedExpiryDate)}</Text>
                          {row.gedConfirmed && (
                            <Badge size="xs" variant="light" color="teal" style={{ minWidth: 'max-content' }}>
                              confirmed
                            </Badge>
                          )}
                        </Stack>
                      ) : (
                        <Text fz="sm" c="dimmed">
                          –
                        </Text>
                      )}
                    </Table.Td>
                    {view === 'disco' && (
                      <Table.Td>
                        <Tooltip label="Guided replacement" withArrow>
                          <ActionIcon variant="light" aria-label={`Replace ${row.upc}`} onClick={() => onReplace(row)} data-testid="disco-replace">
                            <IconReplace size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      </Paper>
      <PagedPager
        page={page}
        total={pages}
        onPage={onPage}
        testId="disco"
        extra={
          <Text fz="sm" c="dimmed" data-testid="disco-total">
            {DISCO_TEXTS.total(count, pageSize)}
          </Text>
        }
      />
    </Stack>
  );
}
