import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { DndContext, DragOverlay, KeyboardSensor, PointerSensor, useDndMonitor, useSensor, useSensors, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import { Box, Center, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBoxOff } from '@tabler/icons-react';
import type { ProductDto } from '@bo/shared/modules';
import { WORKING_AREA_TEXTS, type PerformanceFilters } from '@bo/shared/working-area';
import type { ModuleExportItem } from '@bo/shared/exports';
import { canExport } from '@bo/shared/permissions';
import { AlertBar } from '@/components/ui/alert-bar';
import { NO_GRANTS, useSession } from '@/lib/session';
import { forceUnlockModule } from '@/lib/forced-unlock-calls';
import { useModuleActions, type PublishConfirmation } from '../hooks/use-module-actions';
import { useModuleEditor } from '../hooks/use-module-editor';
import { useNewness, type NewnessTab } from '../hooks/use-newness';
import type { DragData, DropData } from '../logic/dnd-ids';
import type { Area } from '../logic/drop-rules';
import { areaCollision, jumpBetweenModuleAreas } from '../logic/keyboard-dnd';
import { skuDragAccessibility } from '../logic/drag-announcements';
import { moduleKey, parseModuleKey, type ModuleKeyString } from '../logic/module-key';
import { activeCounts } from '../hooks/editor-reducer';
import { compareModules, type ModuleOrder, type SkuOrder } from '../logic/ordering';
import { isFiltering, matchesModuleFilter, NO_MODULE_FILTER, type ModuleFilter } from '../logic/module-filter';
import type { PageRequest } from '../logic/page-params';
import { ActiveSkusPanel } from './active-skus-panel';
import { ClusterAnalysisPanel } from './cluster-analysis-panel';
import { CopyModal } from './copy-modal';
import { EditorHeader, type PanelName } from './editor-header';
import { ImportModal } from './import-modal';
import { ModuleCardSkeletons } from './module-card-skeletons';
import type { ModuleCardHandlers } from './module-card';
import { ModuleList } from './module-list';
import { ModulesPanel } from './modules-panel';
import { DEFAULT_PERFORMANCE_FILTERS } from './performance-filter-fields';
import { PerformanceModal } from './performance-modal';
import { SkuInfoModal } from './sku-info-modal';
import { SkuTile, type SkuMenuAction } from './sku-tile';
import classes from './module-editor-page.module.css';
import type { ModuleHistorySlotProps } from '@/components/editor/history-slots';

/** The Create Module popup as the page uses it (its form belongs to home; the app route passes it in). */
export interface CreateModuleSlotProps {
  opened: boolean;
  onClose: () => void;
  monthId: string;
  defaults: { macroFamily?: string | null; brand?: string | null; collection?: string | null; starZones?: string[] };
  onCreated: (created: { moduleName: string; monthId: string }) => Promise<void>;
}

/** The export popup as the page uses it (it belongs to the exports feature; the app route passes it in). */
export interface ExportSlotProps {
  opened: boolean;
  onClose: () => void;
  items: ModuleExportItem[];
  note?: ReactNode;
}

/**
 * The module page (part 1 §2 Module editor, part 2 §2 Working Area). The Create Module and Export popups
 * are other features' screens, so the app route composes them in (`app/routes/module.tsx`): features do
 * not import each other.
 */
export function ModuleEditorPage({
  request,
  createModule,
  exportPopup,
  historyPanel,
  publishConfirmation,
}: {
  request: PageRequest;
  createModule: (props: CreateModuleSlotProps) => ReactNode;
  exportPopup: (props: ExportSlotProps) => ReactNode;
  historyPanel?: (props: ModuleHistorySlotProps) => ReactNode;
  publishConfirmation?: PublishConfirmation;
}) {
  const editor = useModuleEditor(request);
  const actions = useModuleActions(editor, publishConfirmation);
  const { modules, access, status } = editor;
  const [moduleOrder, setModuleOrder] = useState<ModuleOrder>('name');
  const [skuOrder, setSkuOrder] = useState<SkuOrder>('sellOut');
  const [collapsed, setCollapsed] = useState<Record<ModuleKeyString, boolean>>({});
  const [panel, setPanel] = useState<PanelName | null>(null);
  const [copyKeys, setCopyKeys] = useState<ModuleKeyString[] | null>(null);
  const [performanceKey, setPerformanceKey] = useState<ModuleKeyString | null>(null);
  const [historyKey, setHistoryKey] = useState<ModuleKeyString | null>(null);
  const [info, setInfo] = useState<{ key: ModuleKeyString | null; product: ProductDto } | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const [performanceFilters, setPerformanceFilters] = useState<PerformanceFilters>(DEFAULT_PERFORMANCE_FILTERS);
  const [moduleFilter, setModuleFilter] = useState<ModuleFilter>(NO_MODULE_FILTER);
  const [customOrder, setCustomOrder] = useState<ModuleKeyString[]>([]);
  const [scrollTo, setScrollTo] = useState<{ key: ModuleKeyString } | null>(null);
  const grants = useSession((s) => s.grants) ?? NO_GRANTS;
  const [newnessTab, setNewnessTab] = useState<NewnessTab | null>(null);
  const highlight = useNewness(modules, newnessTab);

  const sorted = useMemo(() => {
    const withCounts = modules.map((m) => ({ m, moduleName: m.dto.moduleName, macroFamily: m.dto.macroFamily, specialKind: m.dto.specialKind, door: m.dto.door, mustHaveCount: activeCounts(m.products).mh }));
    return withCounts.sort(compareModules(moduleOrder, customOrder, (x) => moduleKey(x.m.dto))).map((x) => x.m);
  }, [modules, moduleOrder, customOrder]);
  // The Modules panel's filter: the cards shown (save-all, publish-all and copy-all still see every module).
  const shown = useMemo(() => (isFiltering(moduleFilter) ? sorted.filter((m) => matchesModuleFilter(m, moduleFilter)) : sorted), [sorted, moduleFilter]);
  const shownKeys = useMemo(() => new Set(shown.map((m) => moduleKey(m.dto))), [shown]);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: jumpBetweenModuleAreas }));
  const { drop, toggle, keyAction, setMinValue, setDescription, setNewModule, dispatch } = editor;
  // The dragged tile is drawn by <DragPreview> from dnd-kit's events: a drag does not re-render the page.
  // What is dragged is kept from the start: dnd-kit gives an empty `data` once the source tile has
  // unmounted (a virtualised card or Active SKUs row scrolled away during the drag).
  const dragged = useRef<DragData | null>(null);
  // dnd-kit's live region speaks the SKU, area and module label (issue 34); the labels are read when spoken.
  const modulesNow = useRef(editor.state.modules);
  modulesNow.current = editor.state.modules;
  const accessibility = useMemo(() => skuDragAccessibility((k) => modulesNow.current[k]?.dto.moduleLabel), []);
  // The card list while a SKU is dragged: marked in the DOM (sku-tile.module.css), not by a render.
  const list = useRef<HTMLDivElement | null>(null);
  const onDragStart = useCallback((e: DragStartEvent) => {
    dragged.current = asDragData(e.active.data.current);
    list.current?.setAttribute('data-sku-drag', '');
  }, []);
  const onDragEnd = useCallback(
    (e: DragEndEvent) => {
      const drag = asDragData(e.active.data.current) ?? dragged.current;
      dragged.current = null;
      list.current?.removeAttribute('data-sku-drag');
      const target = e.over?.data.current as DropData | undefined;
      if (drag && target) drop(drag, target);
    },
    [drop],
  );
  const onDragCancel = useCallback(() => {
    dragged.current = null;
    list.current?.removeAttribute('data-sku-drag');
  }, []);

  const { move, addTo, lock, reload } = editor;
  // "Yes, Unlock" on a card another user holds: the forced unlock, then the lock is ours and the card shows the saved module.
  const unlock = useCallback(
    async (key: ModuleKeyString) => {
      const item = parseModuleKey(key);
      await forceUnlockModule(item);
      await lock([item]);
      await reload([item]);
    },
    [lock, reload],
  );
  // The menu is built when a tile's ⋮ opens: it reads access and the module list from refs, so the
  // function stays the same across edits and the tiles of unchanged modules are not re-rendered.
  const others = useMemo(() => sorted.map((m) => ({ key: moduleKey(m.dto), name: m.dto.moduleName })), [sorted]);
  const live = useRef({ access, others });
  live.current = { access, others };
  const menu = useCallback(
    (key: ModuleKeyString, product: ProductDto, area: Area): SkuMenuAction[] => {
      const { access, others } = live.current;
      const items: SkuMenuAction[] = [{ label: 'SKU information', onSelect: () => setInfo({ key, product }) }];
      if (access[key]?.readOnly) return items;
      if (area === 'MH') items.push({ label: 'Move to Eligible (EL)', onSelect: () => move(key, product.upc, 'EL') });
      if (area === 'EL') items.push({ label: 'Move to Must Have (MH)', onSelect: () => move(key, product.upc, 'MH') });
      if (area === 'BIN') {
        items.push({ label: 'Restore as Must Have', onSelect: () => move(key, product.upc, 'MH') });
        items.push({ label: 'Restore as Eligible', onSelect: () => move(key, product.upc, 'EL') });
      } else {
        items.push({ label: 'Remove (to the bin)', color: 'red', onSelect: () => move(key, product.upc, 'BIN') });
        for (const o of others.filter((o) => o.key !== key && !access[o.key]?.readOnly).slice(0, 8)) {
          items.push({ label: `Add to ${o.name} as MH`, onSelect: () => addTo(key, product, o.key, 'MH') });
          items.push({ label: `Add to ${o.name} as EL`, onSelect: () => addTo(key, product, o.key, 'EL') });
        }
      }
      return items;
    },
    [move, addTo],
  );

  const { save, publish } = actions;
  const onActiveInfo = useCallback((product: ProductDto) => setInfo({ key: null, product }), []);
  const handlers: ModuleCardHandlers = useMemo(
    () => ({
      onToggle: toggle,
      onKeyAction: keyAction,
      onMinValue: setMinValue,
      onDescription: setDescription,
      onNewModule: setNewModule,
      onSave: (key) => void save(key),
      onPublish: (key) => void publish(key),
      onCopy: (key) => setCopyKeys([key]),
      onPerformance: setPerformanceKey,
      onHistory: setHistoryKey,
      onCollapse: (key) => setCollapsed((c) => ({ ...c, [key]: !c[key] })),
      onClose: (key) => dispatch({ type: 'closed', key }),
      onUnlock: unlock,
      onEditNow: editor.live.editNow,
      onReload: editor.live.reload,
      mayEdit: editor.live.mayEdit,
      menu,
      onInfo: (key, product) => setInfo({ key, product }),
    }),
    [toggle, keyAction, setMinValue, setDescription, setNewModule, dispatch, save, publish, menu, unlock, editor.live.editNow, editor.live.reload, editor.live.mayEdit],
  );

  const keys = sorted.map((m) => moduleKey(m.dto));
  // Export Module: the page's modules the user may export (admin, or edit on the brand and a zone), saved version.
  const exportItems = useMemo(
    () => sorted.filter((m) => canExport(grants, { brand: m.dto.brand, zones: m.dto.starZones })).map((m) => ({ moduleName: m.dto.moduleName, monthId: m.dto.monthId, zones: m.dto.starZones, legoMonth: m.dto.legoMonth })),
    [sorted, grants],
  );
  // Create Module opens the home form for the page's month, with the first module's family, brand and collection.
  const first = sorted[0]?.dto;
  const createDefaults = useMemo(() => (first ? { macroFamily: first.macroFamily, brand: first.brand, collection: first.collection, starZones: first.starZones } : {}), [first]);
  const firstMonth = modules[0]?.dto.monthId ?? (request.kind === 'family' ? request.monthId : request.kind === 'modules' ? (request.keys[0]?.monthId ?? null) : null);

  let content: React.ReactNode;
  if (status === 'loading') {
    // The frame at once (issue 34): the header above and a skeleton per module asked for, while the lock and modules calls are on their way.
    content = <ModuleCardSkeletons count={request.kind === 'modules' ? request.keys.length : 3} />;
  } else if (status === 'error' || status === 'notFound' || modules.length === 0) {
    content = (
      <Center h="60vh">
        <Stack align="center" gap="sm" maw={520} ta="center">
          <ThemeIcon size={64} radius={32} variant="light" color="gray">
            <IconBoxOff size={32} />
          </ThemeIcon>
          <Text fw={600} data-testid="empty-page">
            {status === 'ready' || (status === 'notFound' && request.kind === 'family') ? WORKING_AREA_TEXTS.noModules : WORKING_AREA_TEXTS.moduleNotFound}
          </Text>
        </Stack>
      </Center>
    );
  } else {
    // 'locking': drawn hidden and inert behind the loader until the lock answer comes (use-module-editor).
    const locking = status === 'locking';
    content = (
      <>
        {locking && (
          <div className={classes.locking}>
            <ModuleCardSkeletons count={modules.length} />
          </div>
        )}
        <div ref={list} className={classes.list} data-locking={locking || undefined} inert={locking}>
          {shown.length === 0 ? (
            <Center h="40vh">
              <Text c="dimmed" data-testid="no-module-shown">
                No module of the page matches the filter.
              </Text>
            </Center>
          ) : (
            <ModuleList modules={shown} access={access} collapsed={collapsed} skuOrder={skuOrder} highlight={highlight} handlers={handlers} notices={editor.live.notices} scrollTo={scrollTo} />
          )}
        </div>
      </>
    );
  }

  return (
    <DndContext accessibility={accessibility} sensors={sensors} collisionDetection={areaCollision} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={onDragCancel} autoScroll={{ threshold: { x: 0, y: 0.15 }, interval: 16, acceleration: 20 }}>
      <Box className={classes.page}>
        <AlertBar />
        <EditorHeader
          editor={editor}
          actions={actions}
          keys={status === 'locking' ? NO_KEYS : keys}
          moduleOrder={moduleOrder}
          onModuleOrder={setModuleOrder}
          skuOrder={skuOrder}
          onSkuOrder={setSkuOrder}
          panel={panel}
          onPanel={setPanel}
          newnessTab={newnessTab}
          onNewnessTab={setNewnessTab}
          onCreate={() => setCreateOpen(true)}
          onImport={() => setImportOpen(true)}
          onExport={() => setExportOpen(true)}
          shownCount={shown.length}
          performanceFilters={performanceFilters}
          onPerformanceFilters={setPerformanceFilters}
          exportable={exportItems.length}
          onCopyAll={() => setCopyKeys(keys.filter((k) => access[k]?.canCopy))}
          onCollapseAll={(value) => setCollapsed(Object.fromEntries(keys.map((k) => [k, value])))}
        />
        <div className={classes.body} data-panel={panel ?? undefined}>
          {panel && (
            <aside className={classes.panel} data-testid={`panel-${panel}`}>
              {panel === 'modules' ? (
                <ModulesPanel
                  modules={sorted}
                  shown={shownKeys}
                  filter={moduleFilter}
                  onFilter={setModuleFilter}
                  onReorder={(order) => {
                    setCustomOrder(order);
                    setModuleOrder('custom');
                  }}
                  onShow={(key) => {
                    if (!shownKeys.has(key)) setModuleFilter(NO_MODULE_FILTER);
                    setScrollTo({ key });
                  }}
                />
              ) : panel === 'analysis' ? <ClusterAnalysisPanel modules={modules} /> : <ActiveSkusPanel modules={modules} access={access} performanceFilters={performanceFilters} onAdd={addTo} onInfo={onActiveInfo} />}
            </aside>
          )}
          <main className={classes.cards}>{content}</main>
        </div>
      </Box>
      <DragPreview />
      <CopyModal modules={copyKeys?.map(parseModuleKey) ?? null} onClose={() => setCopyKeys(null)} />
      <ImportModal opened={importOpen} defaultMonthId={firstMonth} onClose={() => setImportOpen(false)} onImport={editor.addModules} />
      {firstMonth &&
        createModule({
          opened: createOpen,
          onClose: () => setCreateOpen(false),
          monthId: firstMonth,
          defaults: createDefaults,
          onCreated: async (created) => void (await editor.addModules([created])),
        })}
      {exportPopup({
        opened: exportOpen,
        onClose: () => setExportOpen(false),
        items: exportItems,
        note: editor.dirty ? (
          <Text fz="sm" c="var(--bo-warning-text)" data-testid="export-unsaved">
            Unsaved changes are not exported: save them first to include them.
          </Text>
        ) : undefined,
      })}
      {historyPanel && <ModuleHistory historyKey={historyKey} editor={editor} readOnly={historyKey ? !!access[historyKey]?.readOnly : true} onClose={() => setHistoryKey(null)} panel={historyPanel} />}
      <PerformanceModal
        module={performanceKey ? (editor.state.modules[performanceKey] ?? null) : null}
        onClose={() => setPerformanceKey(null)}
        filters={performanceFilters}
        onFilters={setPerformanceFilters}
      />
      <SkuInfoModal info={info ? { module: info.key ? (editor.state.modules[info.key]?.dto ?? null) : null, product: info.product } : null} onClose={() => setInfo(null)} />
    </DndContext>
  );
}

/** The History panel of the card `historyKey`: Restore loads the version into the card through the editor's reducer (one undo step). */
function ModuleHistory({
  historyKey,
  editor,
  readOnly,
  onClose,
  panel,
}: {
  historyKey: ModuleKeyString | null;
  editor: ReturnType<typeof useModuleEditor>;
  readOnly: boolean;
  onClose: () => void;
  panel: (props: ModuleHistorySlotProps) => ReactNode;
}) {
  const m = historyKey ? editor.state.modules[historyKey] : undefined;
  const { dispatch } = editor;
  if (!m || !historyKey) return panel({ opened: false, onClose, item: { moduleName: '', monthId: '', moduleLabel: '', brand: '', collection: '' }, products: [], description: '', canRestore: false, onRestore: () => undefined });
  const { dto } = m;
  return panel({
    opened: true,
    onClose,
    item: { moduleName: dto.moduleName, monthId: dto.monthId, moduleLabel: dto.moduleLabel, brand: dto.brand, collection: dto.collection },
    products: m.products,
    description: m.description,
    canRestore: !readOnly,
    onRestore: ({ products, description, revertOf }) => dispatch({ type: 'restore', key: historyKey, products, description, revertOf }),
  });
}

const NO_KEYS: ModuleKeyString[] = [];

/** A tile's drag data, or null (dnd-kit's empty stand-in once the source tile has unmounted). */
const asDragData = (data: unknown): DragData | null => (data && typeof data === 'object' && 'product' in data && (data as DragData).product ? (data as DragData) : null);

/** The tile under the pointer while dragging, kept from the drag's start (the source tile may unmount meanwhile). */
function DragPreview() {
  const [dragging, setDragging] = useState<DragData | null>(null);
  useDndMonitor({
    onDragStart: (e) => setDragging(asDragData(e.active.data.current)),
    onDragEnd: () => setDragging(null),
    onDragCancel: () => setDragging(null),
  });
  return <DragOverlay dropAnimation={null}>{dragging ? <SkuTile product={dragging.product} area={dragging.area} readOnly compact={dragging.area === 'BIN'} /> : null}</DragOverlay>;
}
