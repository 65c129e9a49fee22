import { useEffect, useMemo, useState } from 'react';
import { Box, Group, Loader, Modal, ScrollArea, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { WORKING_AREA_TEXTS, type PerformanceFilters, type PerformanceUpc } from '@bo/shared/working-area';
import { formatInteger, formatMonthId } from '@/lib/format';
import { ApiError } from '@/lib/api-error';
import { splitMessages } from '@/components/ui/message-popup';
import { useModulePerformances } from '../api/get-module-performances';
import type { EditorModule } from '../hooks/editor-reducer';
import { PerformanceFilterFields } from './performance-filter-fields';
import { Sparkline } from './sparkline';

const PAGE_SIZE = 10;
const SCROLL_LOAD_AT = 0.85;
/** Five equal sell-out intervals from min to max, light to dark. */
const SHADES = ['#f1f3f5', '#dbe4ff', '#bac8ff', '#91a7ff', '#748ffc'];

type View = 'zone' | 'behaviour';

/** Which of the 5 equal intervals between min and max holds `value` (0–4). */
function intervalOf(value: number, min: number, max: number): number {
  if (max <= min) return 0;
  return Math.min(4, Math.floor(((value - min) / (max - min)) * 5));
}

function columnsOf(list: PerformanceUpc[], view: View): string[] {
  const set = new Set<string>();
  for (const u of list) for (const z of u.starZoneList) (view === 'zone' ? [z.starZone] : z.segmentationList.map((s) => s.segmentation)).forEach((c) => set.add(c));
  return [...set].sort();
}

function cellsOf(u: PerformanceUpc, view: View): Map<string, { sellOut: number; numDoor: number }> {
  const out = new Map<string, { sellOut: number; numDoor: number }>();
  for (const z of u.starZoneList) {
    if (view === 'zone') out.set(z.starZone, { sellOut: z.segmentationList.reduce((s, x) => s + x.sellOut, 0), numDoor: z.numDoor });
    else
      for (const s of z.segmentationList) {
        const c = out.get(s.segmentation) ?? { sellOut: 0, numDoor: 0 };
        out.set(s.segmentation, { sellOut: c.sellOut + s.sellOut, numDoor: c.numDoor + s.numDoor });
      }
  }
  return out;
}

/** Performance popup: stars zone view / buying behaviour view of the module's SKUs, with the performance filters. */
export function PerformanceModal({
  module,
  onClose,
  filters,
  onFilters,
}: {
  module: EditorModule | null;
  onClose: () => void;
  /** The page's performance filters: changed here, they change for the page. */
  filters: PerformanceFilters;
  onFilters: (next: PerformanceFilters) => void;
}) {
  const [view, setView] = useState<View>('zone');
  const [pages, setPages] = useState(1);
  const dto = module?.dto;
  const upcs = useMemo(() => module?.products.filter((p) => p.moduleCompositionStatus !== 'REMOVED').map((p) => ({ upc: p.upc })) ?? [], [module?.products]);
  const query = useModulePerformances(dto ? { moduleName: dto.moduleName, monthId: dto.monthId, productDtoList: upcs } : null, filters);
  useEffect(() => setPages(1), [filters, view, dto?.moduleName]);
  // A page that does not fill the table cannot be scrolled: bring the next one at once. It measures the
  // painted table, so it runs after every render; the condition stops it once the page scrolls or all rows show.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- no dependency list on purpose (see above)
  useEffect(() => {
    const el = document.querySelector('[data-performance-scroll] .mantine-ScrollArea-viewport') as HTMLElement | null;
    const total = query.data?.upcList.length ?? 0;
    if (el && el.scrollHeight <= el.clientHeight + 4 && pages * PAGE_SIZE < total) setPages((n) => n + 1);
  });

  const list = query.data?.upcList ?? [];
  const columns = columnsOf(list, view);
  const shown = list.slice(0, pages * PAGE_SIZE);
  const values = list.flatMap((u) => [...cellsOf(u, view).values()].map((c) => c.sellOut));
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 0;
  const messages = query.error ? splitMessages(query.error instanceof ApiError ? query.error.message : String(query.error)) : splitMessages(query.data?.status);

  return (
    <Modal opened={!!module} onClose={onClose} size="95%" centered title={<Text fw={700}>Performance · {dto?.moduleLabel}</Text>}>
      <Stack gap="sm">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <SegmentedControl size="xs" value={view} onChange={(v) => setView(v as View)} data={[{ value: 'zone', label: 'Stars zone view' }, { value: 'behaviour', label: 'Buying behaviour view' }]} />
          <PerformanceFilterFields value={filters} onChange={onFilters} />
        </Group>
        {query.isLoading ? (
          <Group justify="center" py="xl">
            <Loader size="sm" />
          </Group>
        ) : list.length === 0 || query.error ? (
          <Stack gap={2} py="xl" align="center" data-testid="performance-empty">
            {(messages.length ? messages : [WORKING_AREA_TEXTS.noPerformance]).map((m) => (
              <Text key={m} c="dimmed" fz="sm">
                {m}
              </Text>
            ))}
          </Stack>
        ) : (
          <>
            <Group gap="xs" fz="xs">
              <Text fz="xs" c="dimmed">
                Sell-out over {query.data?.months.length} months · {list.length} SKUs · intervals:
              </Text>
              {SHADES.map((c, i) => (
                <Box key={c} px={6} style={{ background: c, borderRadius: 3, fontSize: 11 }}>
                  {formatInteger(min + ((max - min) * i) / 5)}–{formatInteger(min + ((max - min) * (i + 1)) / 5)}
                </Box>
              ))}
            </Group>
            <ScrollArea
              h="60vh"
              onScrollPositionChange={({ y }) => {
                const el = document.querySelector('[data-performance-scroll] .mantine-ScrollArea-viewport') as HTMLElement | null;
                if (el && y + el.clientHeight >= SCROLL_LOAD_AT * el.scrollHeight && shown.length < list.length) setPages((n) => n + 1);
              }}
              data-performance-scroll
              // A scrolled table is read by keyboard too: its viewport takes the focus (arrows, Page Down).
              viewportProps={{ tabIndex: 0, 'aria-label': 'Performance by store' }}
            >
              <Table striped={false} highlightOnHover stickyHeader fz="xs" verticalSpacing={4} data-testid="performance-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>SKU</Table.Th>
                    <Table.Th>Trend</Table.Th>
                    <Table.Th ta="right">Sell-out</Table.Th>
                    <Table.Th ta="right">Doors</Table.Th>
                    {columns.map((c) => (
                      <Table.Th key={c} ta="right">
                        {c}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((u) => {
                    const cells = cellsOf(u, view);
                    return (
                      <Table.Tr key={u.upc}>
                        <Table.Td>
                          <Text fz="xs" fw={600}>
                            {u.model} {u.color} {u.size}
                          </Text>
                          <Text fz={10} c="dimmed">
                            {u.upc}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Sparkline values={u.monthly.map((m) => m.sellOut)} label={`Sell-out by month: ${u.monthly.map((m) => `${formatMonthId(m.monthId)} ${m.sellOut}`).join(', ')}`} />
                        </Table.Td>
                        <Table.Td ta="right" fw={600}>
                          {formatInteger(u.sellOut)}
                        </Table.Td>
                        <Table.Td ta="right">{formatInteger(u.numDoor)}</Table.Td>
                        {columns.map((c) => {
                          const cell = cells.get(c);
                          if (!cell) return <Table.Td key={c} />;
                          const extreme = cell.sellOut === max ? 'max' : cell.sellOut === min ? 'min' : undefined;
                          return (
                            <Table.Td
                              key={c}
                              ta="right"
                              data-extreme={extreme}
                              style={{
                                background: SHADES[intervalOf(cell.sellOut, min, max)],
                                outline: extreme ? `2px solid ${extreme === 'max' ? '#2b8a3e' : '#c92a2a'}` : undefined,
                                outlineOffset: -2,
                                fontWeight: extreme ? 700 : undefined,
                              }}
                              title={`${formatInteger(cell.numDoor)} doors`}
                            >
                              {formatInteger(cell.sellOut)}
                            </Table.Td>
                          );
                        })}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
              {shown.length < list.length && (
                <Text ta="center" fz="xs" c="dimmed" py="xs">
                  Scroll for more ({shown.length} of {list.length})
                </Text>
              )}
            </ScrollArea>
          </>
        )}
      </Stack>
    </Modal>
  );
}
