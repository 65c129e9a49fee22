import { useCallback, useRef, useState } from 'react';
import { Button, Collapse, Group, MultiSelect, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ERROR_TEXTS } from '@bo/shared/errors';
import type { ProductDto } from '@bo/shared/modules';
import { DEFAULT_MONTHS_ROLLING, narrowsByPlace, WORKING_AREA_TEXTS, type ActiveSku, type ActiveSkuSearch, type PerformanceFilters } from '@bo/shared/working-area';
import { ApiError } from '@/lib/api-error';
import { formatInteger } from '@/lib/format';
import { useBrands, useCollections, usePlanningChannels } from '@/lib/reference-lists';
import { searchActiveSkus } from '../api/search-active-skus';
import type { EditorModule } from '../hooks/editor-reducer';
import type { ModuleAccess } from '../logic/module-access';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';
import { DraggableSku } from './draggable-sku';

interface ActiveSkusPanelProps {
  modules: EditorModule[];
  access: Record<ModuleKeyString, ModuleAccess>;
  /** The page's performance filters: the search keeps the SKUs that sold where they say. */
  performanceFilters: PerformanceFilters;
  onAdd: (from: ModuleKeyString | null, product: ActiveSku, to: ModuleKeyString, area: 'MH' | 'EL') => void;
  onInfo: (product: ActiveSku) => void;
}

type Form = Omit<ActiveSkuSearch, 'monthId'>;

/** Active SKUs: search the catalogue, then drag a SKU into a module (or use its menu). */
export function ActiveSkusPanel({ modules, access, performanceFilters, onAdd, onInfo }: ActiveSkusPanelProps) {
  const brands = useBrands();
  const collections = useCollections();
  const channels = usePlanningChannels();
  const [form, setForm] = useState<Form>({});
  const [results, setResults] = useState<ActiveSku[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // The filters fold away once a search has results, so the list gets the panel's height; one click brings them back.
  const [filtersOpen, setFiltersOpen] = useState(true);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const enabled = (form.planningChannel?.length ?? 0) > 0 || ((form.brand?.length ?? 0) > 0 && (form.collection?.length ?? 0) > 0);
  const monthId = modules[0]?.dto.monthId;
  const editable = modules.filter((m) => !access[moduleKey(m.dto)]?.readOnly);

  const search = async () => {
    if (!enabled) return;
    setLoading(true);
    setMessage(null);
    try {
      const { productDtoList } = await searchActiveSkus({ ...performanceFilters, ...form, ...(monthId ? { monthId } : {}) });
      setResults(productDtoList);
      if (productDtoList.length > 0) setFiltersOpen(false);
    } catch (error) {
      setResults([]);
      setMessage(error instanceof ApiError && error.status === 413 ? ERROR_TEXTS.tooManyResults : error instanceof ApiError ? error.message : 'Search failed');
    } finally {
      setLoading(false);
    }
  };

  const parent = useRef<HTMLDivElement>(null);
  const rows = results ?? [];
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => 124, getItemKey: (i) => rows[i]!.upc, overscan: 4 });
  const live = useRef({ editable, onAdd, onInfo });
  live.current = { editable, onAdd, onInfo };
  const info = useCallback((_key: ModuleKeyString | null, p: ProductDto) => live.current.onInfo(p as ActiveSku), []);
  const menu = useCallback((_key: ModuleKeyString | null, p: ProductDto) => {
    const { editable, onAdd, onInfo } = live.current;
    const sku = p as ActiveSku;
    return [
      { label: 'SKU information', onSelect: () => onInfo(sku) },
      ...editable.slice(0, 10).flatMap((m) => [
        { label: `Add to ${m.dto.moduleName} as MH`, onSelect: () => onAdd(null, sku, moduleKey(m.dto), 'MH') },
        { label: `Add to ${m.dto.moduleName} as EL`, onSelect: () => onAdd(null, sku, moduleKey(m.dto), 'EL') },
      ]),
    ];
  }, []);

  return (
    // The panel's height (the page is the viewport's height): the form on top, the results list takes the rest.
    <Stack gap={6} h="100%" style={{ minHeight: 0 }} onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT' && void search()}>
      <Group justify="space-between" wrap="nowrap">
        <Text fz="xs" fw={700} tt="uppercase" lts={0.6} c="dimmed">
          Active SKUs
        </Text>
        {results !== null && !loading ? (
          <Text fz={11} c="dimmed" data-testid="active-sku-count">
            {formatInteger(rows.length)} SKU{rows.length === 1 ? '' : 's'} found
          </Text>
        ) : null}
      </Group>
      <Collapse expanded={filtersOpen}>
        <Stack gap={6} pb={2}>
          <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
            <TextInput size="xs" label="Model" maxLength={10} value={form.model ?? ''} onChange={(e) => set({ model: e.currentTarget.value })} />
            <TextInput size="xs" label="Color" maxLength={10} value={form.color ?? ''} onChange={(e) => set({ color: e.currentTarget.value })} />
            <TextInput size="xs" label="Size" maxLength={10} value={form.size ?? ''} onChange={(e) => set({ size: e.currentTarget.value })} />
            <TextInput size="xs" label="UPC" maxLength={20} value={form.upc ?? ''} onChange={(e) => set({ upc: e.currentTarget.value })} />
          </SimpleGrid>
          <MultiSelect size="xs" label="Planning channel" data={(channels.data ?? []).map((c) => ({ value: c.planningChannelId, label: c.label }))} value={form.planningChannel ?? []} onChange={(v) => set({ planningChannel: v })} clearable searchable />
          <SimpleGrid cols={2} spacing={6}>
            <MultiSelect size="xs" label="Brand" data={(brands.data ?? []).map((b) => ({ value: b.brandCode, label: b.description }))} value={form.brand ?? []} onChange={(v) => set({ brand: v })} clearable searchable />
            <MultiSelect size="xs" label="Collection" data={(collections.data ?? []).map((c) => ({ value: c.collectionCode, label: c.description }))} value={form.collection ?? []} onChange={(v) => set({ collection: v })} clearable searchable />
            <NumberInput size="xs" label="Price min" min={0} decimalSeparator="," thousandSeparator="." value={form.priceMin ?? ''} onChange={(v) => set({ priceMin: typeof v === 'number' ? Math.max(0, v) : null })} />
            <NumberInput size="xs" label="Price max" min={0} decimalSeparator="," thousandSeparator="." value={form.priceMax ?? ''} onChange={(v) => set({ priceMax: typeof v === 'number' ? Math.max(0, v) : null })} />
          </SimpleGrid>
          <MultiSelect size="xs" label="Modules" data={[...new Set(modules.map((m) => m.dto.moduleName))]} value={form.moduleList ?? []} onChange={(v) => set({ moduleList: v })} clearable searchable />
        </Stack>
      </Collapse>
      {narrowsByPlace(performanceFilters) && (
        <Text fz={11} c="brand.7" data-testid="active-performance-note">
          With the page's performance filters: only SKUs that sold there over the last {performanceFilters.monthsRolling?.[0] ?? DEFAULT_MONTHS_ROLLING} months.
        </Text>
      )}
      <Group justify="space-between">
        <Group gap={4}>
          <Button size="compact-xs" variant="subtle" onClick={() => (setForm({}), setResults(null), setFiltersOpen(true))}>
            Reset
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={() => setFiltersOpen((o) => !o)} aria-expanded={filtersOpen} data-testid="active-filters-toggle">
            {filtersOpen ? 'Hide filters' : 'Show filters'}
          </Button>
        </Group>
        <DisabledReason reason={!enabled && 'Choose a planning channel, or a brand and a collection'}>
          <Button size="xs" loading={loading} onClick={() => void search()}>
            Search
          </Button>
        </DisabledReason>
      </Group>
      <div ref={parent} style={{ flex: '1 1 0', minHeight: 240, overflow: 'auto' }} data-testid="active-sku-results">
        {results === null ? (
          <Text fz="sm" c="dimmed" ta="center" py="md">
            {WORKING_AREA_TEXTS.filterToSearch}
          </Text>
        ) : rows.length === 0 ? (
          <Text fz="sm" c="dimmed" ta="center" py="md">
            {message ?? WORKING_AREA_TEXTS.noSearchResults}
          </Text>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const p = rows[item.index]!;
              // Rows are measured (tiles differ in height with their flags and wrapped names): no overlap.
              return (
                <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)`, paddingBottom: 6 }} data-testid="active-sku-row">
                  <DraggableSku moduleKey={null} product={p} area="EL" readOnly={false} menu={menu} onInfo={info} />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </Stack>
  );
}
