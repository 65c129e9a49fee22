import { ActionIcon, Button, Group, Loader, Menu, MultiSelect, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { moduleKeyString } from '@bo/shared/item-keys';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { CLUSTER_EDITOR_TEXTS, moduleSearchAllowed, type SearchedModule } from '@bo/shared/cluster-editor';
import { ERROR_TEXTS } from '@bo/shared/errors';
import { LIMITS } from '@bo/shared/validation';
import { ApiError } from '@/lib/api-error';
import { monthOptions } from '@/lib/format';
import { searchModules } from '../api/search-modules';
import { useSearchOptions } from '../api/get-search-options';
import { toEditorModule, type EditorModule } from '../logic/composition';
import { Draggable } from './dnd';
import { ModuleChip } from './module-chip';
import classes from './module-search-panel.module.css';


/**
 * The module search (part 2 §2, §5): brand, collection, label, month, country and family; Search needs a
 * country, a family or more than 4 characters; Enter searches. Results are dragged into a cluster (or added
 * with the + menu, the keyboard way).
 */
export function ModuleSearchPanel({
  defaultMonth,
  familyOptions,
  targets,
  onAdd,
}: {
  defaultMonth: string;
  familyOptions: string[];
  targets: { key: string; label: string }[];
  onAdd: (key: string | 'all', module: EditorModule) => void;
}) {
  const options = useSearchOptions();
  const [brand, setBrand] = useState<string[]>([]);
  const [collection, setCollection] = useState<string[]>([]);
  const [country, setCountry] = useState<string[]>([]);
  const [macroFamily, setMacroFamily] = useState<string[]>([]);
  const [label, setLabel] = useState('');
  const [monthId, setMonthId] = useState<string | null>(defaultMonth || null);
  const [results, setResults] = useState<SearchedModule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const request = { brand, collection, country, macroFamily, moduleLabel: label.trim() ? [label.trim()] : [], monthId: monthId ? [monthId] : [] };
  const allowed = !!monthId && moduleSearchAllowed(request);

  const run = async () => {
    if (!allowed || loading) return;
    setLoading(true);
    setError(null);
    try {
      setResults(await searchModules(request));
    } catch (e) {
      setResults(null);
      setError(e instanceof ApiError && e.status === 413 ? `${ERROR_TEXTS.tooManyResults}. ${ERROR_TEXTS.changeFilters}` : e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };

  const opts = options.data;
  const list = results ?? [];
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 84,
    getItemKey: (i) => moduleKeyString(list[i]!),
    overscan: 6,
  });
  return (
    <Paper withBorder radius="md" p="md" shadow="xs" data-testid="module-search" className={classes.panel}>
      <Stack
        gap="xs"
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !(e.target as HTMLElement).closest('[role="listbox"]')) {
            e.preventDefault();
            void run();
          }
        }}
      >
        <Title order={5}>Search modules</Title>
        <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
          <MultiSelect size="xs" label="Brand" data={(opts?.brands ?? []).map((b) => ({ value: b.brandCode, label: b.description }))} value={brand} onChange={setBrand} searchable clearable />
          <MultiSelect size="xs" label="Collection" data={(opts?.collections ?? []).map((c) => ({ value: c.collectionCode, label: c.description }))} value={collection} onChange={setCollection} clearable />
          <TextInput size="xs" label="Module label" placeholder="More than 4 characters" value={label} maxLength={LIMITS.moduleLabelSearch} onChange={(e) => setLabel(e.currentTarget.value)} />
          <Select size="xs" label="Month" data={monthOptions(opts?.months ?? [], { openOnly: true })} value={monthId} onChange={setMonthId} allowDeselect={false} searchable />
          <MultiSelect size="xs" label="Country" data={(opts?.countries ?? []).map((c) => ({ value: c.countryCode, label: `${c.countryCode} · ${c.name}` }))} value={country} onChange={setCountry} searchable clearable />
          <MultiSelect size="xs" label="Macro family" data={familyOptions} value={macroFamily} onChange={setMacroFamily} searchable clearable />
        </SimpleGrid>
        <DisabledReason reason={!allowed && (monthId ? 'Choose a country or a macro family, or type more than 4 characters of a module label' : 'Choose a month first')}>
          <Button size="xs" leftSection={<IconSearch size={14} />} loading={loading} onClick={() => void run()}>
            Search
          </Button>
        </DisabledReason>
      </Stack>
      <Group justify="space-between" mt="sm" mb={4}>
        <Text fz="xs" fw={700} tt="uppercase" c="dimmed">
          Results
        </Text>
        {results !== null && !loading ? (
          <Text fz="xs" c="dimmed" data-testid="search-count">
            {results.length} module{results.length === 1 ? '' : 's'} found
          </Text>
        ) : null}
      </Group>
      {/* Fills what the column leaves (flex), scrolls inside, and renders only the rows in view. */}
      <div ref={scroller} className={classes.results} data-testid="search-results-area">
        {loading ? (
          <Loader size="sm" />
        ) : error ? (
          <Text fz="sm" c="red.9">
            {error}
          </Text>
        ) : results === null ? (
          <Text fz="sm" c="dimmed" ta="center" py="md">
            {CLUSTER_EDITOR_TEXTS.filterToStart}
          </Text>
        ) : results.length === 0 ? (
          <Text fz="sm" c="dimmed" ta="center" py="md">
            {CLUSTER_EDITOR_TEXTS.noSearchResults}
          </Text>
        ) : (
          <div data-testid="search-results" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const r = list[item.index]!;
              const m = toEditorModule(r, 'ADDED', r.totalSku);
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)`, paddingBottom: 6 }}
                >
                  <Draggable id={`search:${moduleKeyString(r)}`} data={{ source: 'search', module: m }}>
                    <ModuleChip
                      module={m}
                      extra={
                        <Menu withinPortal position="bottom-end">
                          <Menu.Target>
                            <Tooltip label="Add to a cluster">
                              <ActionIcon size="sm" variant="subtle" aria-label={`Add ${r.moduleName} to a cluster`} onPointerDown={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                                <IconPlus size={14} />
                              </ActionIcon>
                            </Tooltip>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {targets.map((t) => (
                              <Menu.Item key={t.key} onClick={() => onAdd(t.key, m)}>
                                {t.label}
                              </Menu.Item>
                            ))}
                            <Menu.Divider />
                            <Menu.Item onClick={() => onAdd('all', m)}>{CLUSTER_EDITOR_TEXTS.addToAll}</Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      }
                    />
                    <Text fz={10} c="dimmed" mt={2} ml={4}>
                      {r.brand} · {r.collection} · {r.macroFamily}
                    </Text>
                  </Draggable>
                </div>
              );
            })}
          </div>
        )}
      </div>
    </Paper>
  );
}
