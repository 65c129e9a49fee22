import { ActionIcon, Anchor, Badge, Box, Button, Collapse, Group, Loader, Modal, MultiSelect, Paper, Stack, Table, Text, Textarea, Tooltip } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCheck, IconChevronDown, IconChevronRight, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useMemo, useState } from 'react';
import { SUGGESTION_FILTER_KEYS, SUGGESTION_TEXTS, type SuggestedCluster, type SuggestionFilterKey } from '@bo/shared/suggested-clusters';
import { AlertBar } from '@/components/ui/alert-bar';
import { PageHeader } from '@/components/ui/page-header';
import { showMessagePopup } from '@/components/ui/message-popup';
import { formatDate, formatMonthId } from '@/lib/format';
import { acceptSuggestion } from '../api/accept-suggestion';
import { rejectSuggestion } from '../api/reject-suggestion';
import { suggestListQueryKey, useSuggestList } from '../api/get-suggest-list';
import { ClusterPreview } from './cluster-preview';

const listColumns = new Set<SuggestionFilterKey>(['starsCustomer', 'customerSegmentation', 'storeJda']);
const statusColor: Record<string, string> = { PENDING: 'yellow', APPROVED: 'teal', REJECTED: 'red' };
/** Filter widths: the twelve columns fit a 1440 px window without scrolling sideways. */
const filterWidth: Partial<Record<SuggestionFilterKey, number>> = { country: 70, userSuggest: 130, dateSuggest: 100, period: 80, status: 100 };

const valuesOf = (row: SuggestedCluster, key: SuggestionFilterKey): string[] => {
  const v = row[key];
  return Array.isArray(v) ? v : [v];
};

/** A list cell: the first value and how many more (the row expands to show them all). */
function ListCell({ values }: { values: string[] }) {
  if (values.length === 0) return <>–</>;
  return (
    <>
      {values[0]}
      {values.length > 1 ? (
        <Text span c="dimmed" fz="xs">
          {' '}
          +{values.length - 1}
        </Text>
      ) : null}
    </>
  );
}

/** The Approve cluster page (part 2 §2, §4 "Suggested cluster"). */
export function ApproveClusterPage() {
  const list = useSuggestList();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Partial<Record<SuggestionFilterKey, string[]>>>({});
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [preview, setPreview] = useState<SuggestedCluster | null>(null);
  const [rejecting, setRejecting] = useState<SuggestedCluster | null>(null);
  const [reason, setReason] = useState('');
  const [working, setWorking] = useState<string | null>(null);

  const rows = useMemo(
    () => (list.data?.rows ?? []).filter((r) => SUGGESTION_FILTER_KEYS.every((k) => !filters[k]?.length || valuesOf(r, k).some((v) => filters[k]!.includes(v)))),
    [list.data, filters],
  );

  const reload = () => queryClient.invalidateQueries({ queryKey: suggestListQueryKey });

  const decide = async (line: SuggestedCluster, action: 'accept' | 'reject', message = '') => {
    setWorking(line.assortmentId);
    try {
      const answer = action === 'accept' ? await acceptSuggestion(line) : await rejectSuggestion(line, message);
      const lines = [answer.message];
      if (answer.clusterId) lines.push(`Cluster ${answer.clusterId} (${answer.monthId ? formatMonthId(answer.monthId) : ''})`);
      if (answer.skippedModules.length) lines.push(`Modules not available in the month, left out: ${answer.skippedModules.join(', ')}`);
      showMessagePopup(answer.status === 'APPROVED' ? 'Approved' : 'Rejected', lines, 'blue');
    } catch (e) {
      showMessagePopup('Error!', e instanceof Error ? e.message : String(e));
    } finally {
      setWorking(null);
      await reload();
    }
  };

  if (preview)
    return (
      <Box p="xl" style={{ flex: 1 }}>
        <AlertBar />
        <ClusterPreview line={preview} onBack={() => setPreview(null)} />
      </Box>
    );

  const options = list.data?.filters;
  const setFilter = (key: SuggestionFilterKey, values: string[]) => setFilters((f) => ({ ...f, [key]: values }));

  return (
    <Box p="lg" style={{ flex: 1 }}>
      <AlertBar />
      <Box mb="md">
        <PageHeader
          title={SUGGESTION_TEXTS.header}
          description="Store groupings suggested from the front office: open one to preview its modules, then approve or reject it."
          actions={
            <Text c="dimmed" fz="sm">
              {list.data ? `${rows.length} of ${list.data.rows.length} suggested clusters` : ''}
            </Text>
          }
        />
      </Box>
      <Paper withBorder radius="md" p={0} style={{ overflowX: 'auto' }}>
        {list.isLoading ? (
          <Group p="xl" justify="center">
            <Loader />
          </Group>
        ) : (
          <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={8} fz="xs" data-testid="suggestions-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={36} />
                {SUGGESTION_FILTER_KEYS.map((k) => (
                  <Table.Th key={k} fz="xs" style={{ whiteSpace: 'nowrap' }}>
                    {k}
                  </Table.Th>
                ))}
                <Table.Th>actions</Table.Th>
              </Table.Tr>
              <Table.Tr>
                <Table.Th />
                {SUGGESTION_FILTER_KEYS.map((k) => (
                  <Table.Th key={k}>
                    {k === 'dateSuggest' ? (
                      <DatePickerInput
                        type="multiple"
                        size="xs"
                        w={filterWidth.dateSuggest}
                        valueFormat="DD/MM/YYYY"
                        placeholder="dd/MM/y"
                        aria-label="Filter dateSuggest"
                        clearable
                        value={filters.dateSuggest ?? []}
                        onChange={(v) => setFilter('dateSuggest', (v as unknown[]).map((d) => String(d).slice(0, 10)))}
                      />
                    ) : (
                      <MultiSelect
                        size="xs"
                        w={filterWidth[k] ?? 100}
                        aria-label={`Filter ${k}`}
                        placeholder="All"
                        data={options?.[k] ?? []}
                        value={filters[k] ?? []}
                        onChange={(v) => setFilter(k, v)}
                        searchable
                        clearable
                        clearButtonProps={{ 'aria-label': `Clear the ${k} filter` }}
                        limit={50}
                        comboboxProps={{ width: 240, position: 'bottom-start' }}
                      />
                    )}
                  </Table.Th>
                ))}
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={SUGGESTION_FILTER_KEYS.length + 2}>
                    <Text ta="center" c="dimmed" py="md">
                      No Data Available
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {rows.map((r) => {
                const open = expanded.has(r.assortmentId);
                return (
                  <Fragment key={r.assortmentId}>
                    <Table.Tr data-testid="suggestion-row" data-assortment={r.assortmentId}>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          size="sm"
                          aria-label={open ? 'Collapse' : 'Expand'}
                          aria-expanded={open}
                          onClick={() =>
                            setExpanded((s) => {
                              const n = new Set(s);
                              if (open) n.delete(r.assortmentId);
                              else n.add(r.assortmentId);
                              return n;
                            })
                          }
                        >
                          {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      </Table.Td>
                      {SUGGESTION_FILTER_KEYS.map((k) => (
                        <Table.Td key={k}>
                          {k === 'assortmentId' ? (
                            <Anchor component="button" fz="xs" onClick={() => setPreview(r)}>
                              {r.assortmentId}
                            </Anchor>
                          ) : k === 'dateSuggest' ? (
                            formatDate(r.dateSuggest)
                          ) : k === 'status' ? (
                            r.status === 'REJECTED' && r.message ? (
                              <Tooltip label={r.message} withArrow>
                                <Badge color={statusColor[r.status]} variant="light" data-testid="rejected-status">
                                  {r.status}
                                </Badge>
                              </Tooltip>
                            ) : (
                              <Badge color={statusColor[r.status]} variant="light">
                                {r.status}
                              </Badge>
                            )
                          ) : listColumns.has(k) ? (
                            <ListCell values={valuesOf(r, k)} />
                          ) : (
                            valuesOf(r, k)[0]
                          )}
                        </Table.Td>
                      ))}
                      <Table.Td>
                        {r.status === 'PENDING' ? (
                          <Group gap={6} wrap="nowrap">
                            <Tooltip label="Approve" withArrow>
                              <ActionIcon
                                color="teal"
                                aria-label="Approve"
                                disabled={!r.canDecide || working !== null}
                                loading={working === r.assortmentId}
                                onClick={() => void decide(r, 'accept')}
                              >
                                <IconCheck size={16} />
                              </ActionIcon>
                            </Tooltip>
                            <Tooltip label="Reject" withArrow>
                              <ActionIcon
                                color="red"
                                variant="light"
                                aria-label="Reject"
                                disabled={!r.canDecide || working !== null}
                                onClick={() => {
                                  setReason('');
                                  setRejecting(r);
                                }}
                              >
                                <IconX size={16} />
                              </ActionIcon>
                            </Tooltip>
                          </Group>
                        ) : null}
                      </Table.Td>
                    </Table.Tr>
                    <Table.Tr style={{ display: open ? undefined : 'none' }}>
                      <Table.Td colSpan={SUGGESTION_FILTER_KEYS.length + 2} p={0}>
                        <Collapse expanded={open}>
                          <Group align="flex-start" gap="xl" p="md" bg="gray.0" data-testid="suggestion-details">
                            {(
                              [
                                ['Stars Customer', r.starsCustomer],
                                ['Customer Segmentation', r.customerSegmentation],
                                ['Store Id', r.storeJda],
                              ] as const
                            ).map(([title, values]) => (
                              <Stack key={title} gap={6} maw={420}>
                                <Text fz="xs" fw={700} tt="uppercase" c="dimmed">
                                  {title} ({values.length})
                                </Text>
                                <Group gap={6}>
                                  {values.map((v) => (
                                    <Badge key={v} variant="default" radius="sm" tt="none" fw={500}>
                                      {v}
                                    </Badge>
                                  ))}
                                </Group>
                              </Stack>
                            ))}
                          </Group>
                        </Collapse>
                      </Table.Td>
                    </Table.Tr>
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title={<Text fw={700}>Reject the cluster {rejecting?.assortmentId}</Text>} centered>
        <Stack>
          <Textarea label="Reason (optional)" value={reason} maxLength={500} autosize minRows={3} onChange={(e) => setReason(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRejecting(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                const line = rejecting!;
                setRejecting(null);
                void decide(line, 'reject', reason);
              }}
            >
              Reject
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Box>
  );
}
