import { PresenceBadge } from '@/components/live/presence-badge';
import {
  Alert,
  Box,
  Button,
  Center,
  Checkbox,
  Group,
  List,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import type { DeletionMonthStatus } from '@bo/shared/deletion';
import { formatMonthId } from '@bo/shared/months';
import { IconAlertTriangle, IconRestore } from '@tabler/icons-react';
import { canDeleteAny } from '@bo/shared/permissions';
import { useEffect, useMemo, useState } from 'react';
import { showAlert } from '@/components/ui/alert-store';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableEmpty } from '@/components/ui/data-table';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { flash } from '@/components/ui/flash';
import { PageHeader } from '@/components/ui/page-header';
import { ClientPager, useClientPages } from '@/components/ui/paged-pager';
import { StatusBadge } from '@/components/ui/status-badge';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useDeletedItems, useRestoreItems } from '../api/deletion-area';
import {
  DELETION_AREA_TEXTS as T,
  DELETION_PAGE_SIZE,
  DOT_LEGEND,
  type DeletionRow,
  type DeletionView,
  STATUS_FILTERS,
  type DotColor,
  dotColor,
  emptyMessage,
  isAbsentMonth,
  isRestorable,
  monthTooltip,
  pageSelection,
  restoreFailureText,
  rowError,
  statusText,
  togglePage,
  windowMonths,
} from '../logic/deletion-area';

const DOT_COLORS = { green: 'var(--mantine-color-teal-6)', yellow: 'var(--mantine-color-yellow-5)', red: 'var(--mantine-color-red-6)' } as const;

/** A month's dot: filled, or a ring of the same colour for a month the item is not in. */
const dotStyle = (color: DotColor, ring: boolean): React.CSSProperties => ({
  display: 'inline-block',
  width: 10,
  height: 10,
  borderRadius: 5,
  boxSizing: 'border-box',
  background: ring ? 'transparent' : DOT_COLORS[color],
  border: ring ? `2px solid ${DOT_COLORS[color]}` : undefined,
});

/** What the month dots mean (the table's months carry only a dot and its tooltip). */
function DotLegend() {
  return (
    <Group gap="lg" wrap="wrap" data-testid="dot-legend">
      {DOT_LEGEND.map((entry) => (
        <Group key={entry.text} gap={6} wrap="nowrap">
          <Box component="span" aria-hidden style={dotStyle(entry.color, entry.ring)} />
          <Text fz="xs" c="dimmed">
            {entry.text}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

/** The checkbox and name columns stay in view while the month window scrolls sideways. */
const CHECK_WIDTH = 40;
const stickyCell = (left: number, bg = 'var(--mantine-color-body)'): React.CSSProperties => ({ position: 'sticky', left, zIndex: 2, background: bg });

/**
 * Deletion Area (/deletion-area; part 2 §2, §4, §5, §8): the modules or clusters that have a deletion,
 * their month window as coloured dots, and the restore of those still DELETION_PENDING.
 */
export function DeletionAreaPage() {
  const [view, setView] = useState<DeletionView>('module');
  const [statuses, setStatuses] = useState<DeletionMonthStatus[]>([...STATUS_FILTERS]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const items = useDeletedItems(view, statuses);
  const restore = useRestoreItems(view);
  // The server restores only for a delete right: without any, the page lists but offers no restore.
  const mayRestore = useSession((s) => canDeleteAny(s.grants ?? []));

  const rows = useMemo(() => (statuses.length > 0 ? (items.data ?? []) : []), [items.data, statuses.length]);
  const months = useMemo(() => windowMonths(rows), [rows]);
  const paging = useClientPages(rows, DELETION_PAGE_SIZE);
  const { visible, setPage } = paging;
  const pageKeys = mayRestore ? visible.filter(isRestorable).map((r) => r.key) : [];
  const all = pageSelection(pageKeys, selected);
  // Only rows still listed and restorable count (a reload may have changed their status).
  const chosen = rows.filter((r) => isRestorable(r) && selected.has(r.key));

  useEffect(() => {
    setSelected(new Set());
    setPage(1);
  }, [view, statuses, setPage]);

  const toggle = (key: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const confirmRestore = () => {
    if (chosen.length === 0) {
      showAlert(T.noneSelected);
      return;
    }
    restore.mutate(
      chosen.map((r) => r.key),
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setSelected(new Set());
          if (answer.restored.length > 0) flash(`Restored: ${answer.restored.join(', ')}`, 'success');
          if (answer.notRestored.length > 0) showAlert(answer.notRestored.map((n) => n.reason).join('\n'));
        },
        onError: (error) => {
          setConfirming(false);
          showAlert(restoreFailureText(view, error));
        },
      },
    );
  };

  const loading = statuses.length > 0 && items.isPending;
  const error = statuses.length > 0 && items.isError ? (items.error.message ? T.loadError(items.error.message) : T.loadFailed) : null;
  const span = 3 + months.length;

  return (
    <Stack gap="lg">
      <PageHeader
        title={paths.deletionArea.title}
        description="Modules and clusters with a deletion, month by month. Only items whose deletion is still pending can be restored."
      />
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
            <Group gap="lg" align="flex-end" wrap="wrap">
              <SegmentedControl
                aria-label="View"
                value={view}
                onChange={(v) => setView(v as DeletionView)}
                data={[
                  { value: 'module', label: 'Modules' },
                  { value: 'cluster', label: 'Clusters' },
                ]}
                radius="md"
              />
              <Checkbox.Group label="Status" value={statuses} onChange={(v) => setStatuses(STATUS_FILTERS.filter((s) => v.includes(s)))}>
                <Group gap="md" mt={6}>
                  {STATUS_FILTERS.map((s) => (
                    <Checkbox key={s} value={s} label={statusText(s)} size="xs" />
                  ))}
                </Group>
              </Checkbox.Group>
            </Group>
            <DisabledReason reason={!mayRestore ? T.noRestoreRight : restore.isPending ? T.restoring : chosen.length === 0 && 'Select the rows to restore first'}>
              <Button leftSection={<IconRestore size={16} />} onClick={() => setConfirming(true)} data-testid="restore-selected">
                {restore.isPending ? T.restoring : T.restoreButton(chosen.length)}
              </Button>
            </DisabledReason>
          </Group>

          <DotLegend />

          {error && (
            <Alert color="red" variant="light" data-testid="deletion-load-error">
              {error}
            </Alert>
          )}

          <Table.ScrollContainer minWidth={720}>
            <Table aria-label={view === 'module' ? 'Deleted modules' : 'Deleted clusters'} verticalSpacing="xs" highlightOnHover stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th style={{ ...stickyCell(0), width: CHECK_WIDTH, minWidth: CHECK_WIDTH, maxWidth: CHECK_WIDTH }}>
                    <Checkbox
                      aria-label="Select all on this page"
                      checked={all.all}
                      indeterminate={all.some}
                      disabled={pageKeys.length === 0}
                      onChange={() => setSelected((prev) => togglePage(pageKeys, prev))}
                    />
                  </Table.Th>
                  <Table.Th fz="xs" tt="uppercase" c="dimmed" style={stickyCell(CHECK_WIDTH)}>
                    {view === 'module' ? 'Module Name' : 'Cluster ID'}
                  </Table.Th>
                  {months.map((m) => (
                    <Table.Th key={m} ta="center" fz={10} c="dimmed" fw={600} px={2} lh={1.2} aria-label={formatMonthId(m)}>
                      {formatMonthId(m).split('/')[0]}
                      <br />
                      {formatMonthId(m).split('/')[1]}
                    </Table.Th>
                  ))}
                  <Table.Th fz="xs" tt="uppercase" c="dimmed">
                    Status
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {loading && (
                  <Table.Tr>
                    <Table.Td colSpan={span}>
                      <Center py={40}>
                        <Loader size="sm" />
                      </Center>
                    </Table.Td>
                  </Table.Tr>
                )}
                {!loading && !error && visible.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={span}>
                      <TableEmpty message={emptyMessage(statuses)} />
                    </Table.Td>
                  </Table.Tr>
                )}
                {!loading && visible.map((row) => <ItemRow key={row.key} kind={view} row={row} selected={selected.has(row.key)} onToggle={toggle} mayRestore={mayRestore} />)}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>

          {!loading && rows.length > 0 && (
            <ClientPager paging={paging} count={rows.length} pageSize={DELETION_PAGE_SIZE} testId="deletion" suffix={` · page ${paging.page} of ${paging.pages}`} />
          )}
        </Stack>
      </Paper>

      <ConfirmDialog
        opened={confirming}
        title={T.confirmTitle}
        message={T.confirmQuestion(view)}
        details={
          <List size="sm" spacing={2} data-testid="restore-list">
            {chosen.map((r) => (
              <List.Item key={r.key}>
                {r.key}
                {r.label && r.label !== r.key ? ` – ${r.label}` : ''}
              </List.Item>
            ))}
          </List>
        }
        confirmLabel={restore.isPending ? T.restoring : 'Confirm'}
        cancelLabel="Cancel"
        loading={restore.isPending}
        onConfirm={confirmRestore}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

function ItemRow({ kind, row, selected, onToggle, mayRestore }: { kind: DeletionView; row: DeletionRow; selected: boolean; onToggle: (key: string) => void; mayRestore: boolean }) {
  const error = rowError(row);
  const bg = error ? 'var(--mantine-color-red-0)' : 'var(--mantine-color-body)';
  return (
    <Table.Tr data-testid={`deletion-row-${row.key}`} data-status={row.status}>
      <Table.Td style={{ ...stickyCell(0, bg), width: CHECK_WIDTH, minWidth: CHECK_WIDTH, maxWidth: CHECK_WIDTH }}>{mayRestore && isRestorable(row) && <Checkbox aria-label={`Select ${row.key}`} checked={selected} onChange={() => onToggle(row.key)} />}</Table.Td>
      <Table.Td style={stickyCell(CHECK_WIDTH, bg)} miw={200} maw={260}>
        <Stack gap={2}>
          <Group gap={6} wrap="nowrap">
            <Text fz="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {row.key}
            </Text>
            <PresenceBadge item={{ kind, name: row.key, monthId: row.deleteFromMonthId }} />
          </Group>
          {row.label && row.label !== row.key && (
            <Text fz="xs" c="dimmed">
              {row.label}
            </Text>
          )}
          {error && (
            <Group gap={4} wrap="nowrap" data-testid="deletion-row-error">
              <IconAlertTriangle size={14} color="var(--mantine-color-red-9)" aria-label="Error" />
              <Text fz="xs" c="red.8">
                {error}
              </Text>
            </Group>
          )}
        </Stack>
      </Table.Td>
      {row.openMonthList.map((m) => (
        <Table.Td key={m.monthId} ta="center" px={2} bg={error ? 'var(--mantine-color-red-0)' : undefined}>
          <Tooltip label={monthTooltip(row.label || row.key, m)} withArrow openDelay={100}>
            <Box
              component="span"
              role="img"
              aria-label={monthTooltip(row.label || row.key, m)}
              data-dot={dotColor(m)}
              data-absent={isAbsentMonth(m) || undefined}
              style={dotStyle(dotColor(m), isAbsentMonth(m))}
            />
          </Tooltip>
        </Table.Td>
      ))}
      <Table.Td bg={error ? 'var(--mantine-color-red-0)' : undefined}>
        <StatusBadge status={row.status} size="sm" />
      </Table.Td>
    </Table.Tr>
  );
}
