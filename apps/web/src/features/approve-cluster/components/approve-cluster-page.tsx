import { ActionIcon, Anchor, Badge, Box, Collapse, Group, Loader, MultiSelect, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Fragment, useMemo, useState } from 'react';
import { SUGGESTION_TEXTS, type SuggestedCluster, type SuggestionFilterKey } from '@bo/shared/suggested-clusters';
import { AlertBar } from '@/components/ui/alert-bar';
import { PageHeader } from '@/components/ui/page-header';
import { formatDate } from '@/lib/format';
import { useSuggestList } from '../api/get-suggest-list';
import { useSuggestionDecisions } from '../hooks/use-suggestion-decisions';
import {
  ACTIONS_COLUMN,
  DATE_FILTER_PLACEHOLDER,
  EXPAND_COLUMN_WIDTH,
  matchesFilters,
  SUGGESTION_COLUMNS,
  SUGGESTION_TABLE_MIN_WIDTH,
  type SuggestionColumn,
  type SuggestionFilters,
  valuesOf,
} from '../logic/suggestion-table';
import classes from './approve-cluster-page.module.css';
import { ClusterPreview } from './cluster-preview';
import { DecisionButtons } from './decision-buttons';
import { SuggestionStatus } from './suggestion-status';

/** Widths as shares of the table: wider windows spread the extra space over the columns alike. */
const share = (width: number) => `${((width / SUGGESTION_TABLE_MIN_WIDTH) * 100).toFixed(2)}%`;
const ellipsis = { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' } as const;

/** A value cut to its column with an ellipsis; the tooltip shows it whole, only when it was cut. */
function Truncated({ text, children }: { text: string; children?: React.ReactNode }) {
  const [cut, setCut] = useState(false);
  return (
    <Tooltip label={text} opened={cut} withArrow>
      <Box
        component="span"
        style={ellipsis}
        onMouseEnter={(e: React.MouseEvent<HTMLElement>) => {
          // A block inside (the assortment link) cuts its own text: measure the element that clips.
          const inner = e.currentTarget.firstElementChild;
          const el = inner instanceof HTMLElement && getComputedStyle(inner).display === 'block' ? inner : e.currentTarget;
          setCut(el.scrollWidth > el.clientWidth);
        }}
        onMouseLeave={() => setCut(false)}
      >
        {children ?? text}
      </Box>
    </Tooltip>
  );
}

/** A list cell: the first value and how many more (the row expands to show them all). */
function ListCell({ values }: { values: readonly string[] }) {
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
  const { approve, reject } = useSuggestionDecisions();
  const [filters, setFilters] = useState<SuggestionFilters>({});
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  // The preview follows the list by id: after a decision it shows the reloaded status.
  const [previewId, setPreviewId] = useState<string | null>(null);

  const rows = useMemo(() => (list.data?.rows ?? []).filter((r) => matchesFilters(r, filters)), [list.data, filters]);
  const preview = previewId ? list.data?.rows.find((r) => r.assortmentId === previewId) : undefined;
  const decide = { onApprove: (l: SuggestedCluster) => void approve(l), onReject: (l: SuggestedCluster) => void reject(l) };

  if (preview)
    return (
      <Box p="xl" style={{ flex: 1 }}>
        <AlertBar />
        <ClusterPreview line={preview} onBack={() => setPreviewId(null)} {...decide} />
      </Box>
    );

  const options = list.data?.filters;
  const setFilter = (key: SuggestionFilterKey, values: string[]) => setFilters((f) => ({ ...f, [key]: values }));
  const toggle = (id: string) =>
    setExpanded((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const filterOf = (c: SuggestionColumn) =>
    c.key === 'dateSuggest' ? (
      <DatePickerInput
        type="multiple"
        size="xs"
        valueFormat="DD/MM/YYYY"
        placeholder={DATE_FILTER_PLACEHOLDER}
        aria-label={`Filter ${c.label}`}
        clearable
        value={[...(filters.dateSuggest ?? [])]}
        onChange={(v) => setFilter('dateSuggest', (v as unknown[]).map((d) => String(d).slice(0, 10)))}
        styles={{ input: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}
      />
    ) : (
      <MultiSelect
        size="xs"
        aria-label={`Filter ${c.label}`}
        placeholder="All"
        data={options?.[c.key] ?? []}
        value={[...(filters[c.key] ?? [])]}
        onChange={(v) => setFilter(c.key, v)}
        searchable
        clearable
        clearButtonProps={{ 'aria-label': `Clear the ${c.label} filter` }}
        limit={50}
        comboboxProps={{ width: 240, position: 'bottom-start' }}
      />
    );

  const cellOf = (r: SuggestedCluster, c: SuggestionColumn) => {
    if (c.key === 'assortmentId')
      return (
        <Truncated text={r.assortmentId}>
          <Anchor component="button" fz="xs" onClick={() => setPreviewId(r.assortmentId)} style={ellipsis}>
            {r.assortmentId}
          </Anchor>
        </Truncated>
      );
    if (c.key === 'dateSuggest') return <Truncated text={formatDate(r.dateSuggest)} />;
    if (c.key === 'status') return <SuggestionStatus line={r} />;
    if (c.list) {
      const values = valuesOf(r, c.key);
      return (
        <Truncated text={values.join(', ')}>
          <ListCell values={values} />
        </Truncated>
      );
    }
    return <Truncated text={valuesOf(r, c.key)[0] ?? ''} />;
  };

  const columnCount = SUGGESTION_COLUMNS.length + 2;

  return (
    <Box p="lg" style={{ flex: 1, minWidth: 0 }}>
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
      {/* Fits a 1440 px window; narrower ones scroll the table inside this frame, never the page. */}
      <Paper withBorder radius="md" p={0} style={{ overflowX: 'auto' }} data-testid="suggestions-frame">
        {list.isLoading ? (
          <Group p="xl" justify="center">
            <Loader />
          </Group>
        ) : (
          <Table
            striped
            highlightOnHover
            verticalSpacing="xs"
            horizontalSpacing={8}
            fz="xs"
            data-testid="suggestions-table"
            style={{ tableLayout: 'fixed', width: '100%', minWidth: SUGGESTION_TABLE_MIN_WIDTH }}
          >
            <colgroup>
              <col style={{ width: share(EXPAND_COLUMN_WIDTH) }} />
              {SUGGESTION_COLUMNS.map((c) => (
                <col key={c.key} style={{ width: share(c.width) }} />
              ))}
              <col style={{ width: share(ACTIONS_COLUMN.width) }} />
            </colgroup>
            <Table.Thead>
              <Table.Tr>
                <Table.Th aria-label="Expand" />
                {SUGGESTION_COLUMNS.map((c) => (
                  <Table.Th key={c.key} fz="xs" style={{ verticalAlign: 'bottom', lineHeight: 1.25 }}>
                    {c.label}
                  </Table.Th>
                ))}
                <Table.Th fz="xs" className={classes.actions} style={{ verticalAlign: 'bottom' }}>
                  {ACTIONS_COLUMN.label}
                </Table.Th>
              </Table.Tr>
              <Table.Tr>
                <Table.Th />
                {SUGGESTION_COLUMNS.map((c) => (
                  <Table.Th key={c.key}>{filterOf(c)}</Table.Th>
                ))}
                <Table.Th className={classes.actions} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={columnCount}>
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
                        <ActionIcon variant="subtle" size="sm" aria-label={open ? 'Collapse' : 'Expand'} aria-expanded={open} onClick={() => toggle(r.assortmentId)}>
                          {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      </Table.Td>
                      {SUGGESTION_COLUMNS.map((c) => (
                        <Table.Td key={c.key}>{cellOf(r, c)}</Table.Td>
                      ))}
                      <Table.Td className={classes.actions}>
                        <DecisionButtons line={r} compact {...decide} />
                      </Table.Td>
                    </Table.Tr>
                    <Table.Tr style={{ display: open ? undefined : 'none' }}>
                      <Table.Td colSpan={columnCount} p={0}>
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
    </Box>
  );
}
