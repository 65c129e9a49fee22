import { Alert, Badge, Box, Button, Checkbox, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconExternalLink } from '@tabler/icons-react';
import { EXPORT_SEARCH_TEXTS } from '@bo/shared/export-search';
import { MAX_EXPORT_ITEMS } from '@bo/shared/exports';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { SelectableRow } from '@/components/ui/selectable-row';
import { StatusBadge } from '@/components/ui/status-badge';
import { VirtualList } from '@/components/ui/virtual-list';
import { formatInteger, formatMonthId } from '@/lib/format';
import { isModuleResult, resultKey, resultLabel, resultName, type ExportKind, type ExportResult } from '../logic/export-search';

const ROW_HEIGHT = 64;
const plural = (n: number, one: string, many: string) => `${formatInteger(n)} ${n === 1 ? one : many}`;

/** What a planner weighs an item by, after its name and month. */
function facts(r: ExportResult): string[] {
  if (isModuleResult(r)) return [r.brand, r.collection, r.macroFamily, plural(r.length + r.elLength, 'SKU', 'SKUs'), `MH ${formatInteger(r.length)} / EL ${formatInteger(r.elLength)}`];
  return [r.brandCode, r.collection, r.country.join(', '), plural(r.door, 'door', 'doors'), ...(r.rangeFacing ? [`Range facing ${r.rangeFacing}`] : [])];
}

export interface ExportResultsProps {
  kind: ExportKind;
  state: { searched: boolean; loading: boolean; tooMany: boolean; failed: boolean };
  results: readonly ExportResult[];
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  onExport: (items: readonly ExportResult[]) => void;
  onOpen: (items: readonly ExportResult[]) => void;
  /** At most this many items open at once (clusters: 30). */
  maxOpen: number;
}

/**
 * The results of an export search (part 2 §2): per-item Export, Select All, Open Selected, Export
 * Selected and Export All. An export takes at most MAX_EXPORT_ITEMS items.
 */
export function ExportResults({ kind, state, results, selected, onSelectedChange, onExport, onOpen, maxOpen }: ExportResultsProps) {
  if (!state.searched) {
    return (
      <Paper withBorder radius="lg" p="xl" ta="center" data-testid="export-welcome">
        <Text c="dimmed">Choose the type of results, the statuses and a month, then Search.</Text>
      </Paper>
    );
  }
  if (state.loading) {
    return (
      <Group justify="center" p="xl">
        <Loader data-testid="export-loading" />
      </Group>
    );
  }
  if (state.tooMany) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={EXPORT_SEARCH_TEXTS.tooManyResults} data-testid="export-too-many">
        {EXPORT_SEARCH_TEXTS.changeFilters}
      </Alert>
    );
  }
  if (state.failed) {
    return (
      <Paper withBorder radius="lg" p="xl" ta="center">
        <Text c="red">The search failed. Try again.</Text>
      </Paper>
    );
  }
  if (results.length === 0) {
    return (
      <Paper withBorder radius="lg" p="xl" ta="center">
        <Text c="dimmed" data-testid="export-empty">
          {EXPORT_SEARCH_TEXTS.noResults}
        </Text>
      </Paper>
    );
  }

  const chosen = results.filter((r) => selected.has(resultKey(r)));
  const allChecked = chosen.length === results.length;
  const tooManyToExport = (n: number) => n > MAX_EXPORT_ITEMS;
  const exportHint = `An export takes at most ${MAX_EXPORT_ITEMS} items: select fewer or narrow the filters`;
  const toggle = (key: string) => {
    const next = new Set(selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    onSelectedChange(next);
  };
  const noun = kind === 'module' ? 'module' : 'cluster';

  return (
    <Paper withBorder radius="lg" shadow="xs" style={{ display: 'flex', flexDirection: 'column', minHeight: 0, overflow: 'hidden' }} data-testid="export-results">
      <Group gap="sm" p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }} wrap="wrap">
        <Checkbox
          label="Select All"
          checked={allChecked}
          indeterminate={!allChecked && chosen.length > 0}
          onChange={() => onSelectedChange(allChecked ? new Set() : new Set(results.map(resultKey)))}
          data-testid="select-all"
        />
        <Badge variant="light" color="gray" radius="sm" data-testid="export-count">
          {plural(results.length, noun, `${noun}s`)}
        </Badge>
        {chosen.length > 0 && (
          <Text fz="xs" c="brand.7" fw={600} data-testid="export-selected-count">
            {chosen.length} selected
          </Text>
        )}
        <Group gap="xs" ml="auto">
          <DisabledReason reason={chosen.length === 0 ? `Select the ${noun}s to open` : chosen.length > maxOpen && `At most ${maxOpen} ${noun}s open at once`}>
            <Button size="compact-sm" variant="default" leftSection={<IconExternalLink size={14} />} onClick={() => onOpen(chosen)} data-testid="open-selected">
              Open Selected
            </Button>
          </DisabledReason>
          <DisabledReason reason={chosen.length === 0 ? `Select the ${noun}s to export` : tooManyToExport(chosen.length) && exportHint}>
            <Button size="compact-sm" leftSection={<IconDownload size={14} />} onClick={() => onExport(chosen)} data-testid="export-selected">
              Export Selected
            </Button>
          </DisabledReason>
          <DisabledReason reason={tooManyToExport(results.length) && exportHint}>
            <Button size="compact-sm" variant="light" leftSection={<IconDownload size={14} />} onClick={() => onExport(results)} data-testid="export-all">
              Export All
            </Button>
          </DisabledReason>
        </Group>
      </Group>
      <Box h={`min(${results.length * ROW_HEIGHT}px, calc(100dvh - 260px))`} mih={ROW_HEIGHT}>
        <VirtualList
          items={results}
          rowHeight={ROW_HEIGHT}
          getKey={resultKey}
          aria-label="Export results"
          data-testid="export-list"
          renderRow={(r) => {
            const key = resultKey(r);
            const isSelected = selected.has(key);
            return (
              <SelectableRow selected={isSelected} onToggle={() => toggle(key)} label={resultLabel(r)} testId="export-row" dataKey={key}>
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Group gap={8} wrap="nowrap">
                    <Text fz="sm" fw={600} truncate title={resultLabel(r)}>
                      {resultLabel(r)}
                    </Text>
                    <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {resultName(r)} · {formatMonthId(r.monthId)}
                    </Text>
                  </Group>
                  <Text fz="xs" c="dimmed" truncate>
                    {facts(r).join(' · ')}
                  </Text>
                </Stack>
                {r.legoMonth && (
                  <Badge variant="filled" color="grape" radius="sm" size="sm">
                    LEGO
                  </Badge>
                )}
                <StatusBadge status={r.status} size="sm" />
                <Button
                  size="compact-xs"
                  variant="light"
                  leftSection={<IconDownload size={12} />}
                  onClick={(e) => {
                    e.stopPropagation();
                    onExport([r]);
                  }}
                  aria-label={`Export ${resultLabel(r)}`}
                  data-testid="export-item"
                >
                  Export
                </Button>
              </SelectableRow>
            );
          }}
        />
      </Box>
    </Paper>
  );
}
