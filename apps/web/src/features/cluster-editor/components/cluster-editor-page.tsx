import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { clusterKeyString } from '@bo/shared/item-keys';
import { ActionIcon, Anchor, Badge, Box, Button, Grid, Group, LoadingOverlay, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp, IconChevronLeft, IconCopy, IconDeviceFloppy, IconSend } from '@tabler/icons-react';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import type { ClusterVersionContent } from '@bo/shared/item-versions';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { Link, useSearchParams } from 'react-router';
import { CLUSTER_EDITOR_TEXTS, MAX_OPEN_CLUSTERS } from '@bo/shared/cluster-editor';
import { AlertBar } from '@/components/ui/alert-bar';
import { PageLoader } from '@/components/ui/page-loader';
import { paths } from '@/config/paths';
import { formatMonthId } from '@/lib/format';
import { canEdit } from '@bo/shared/permissions';
import { forceUnlockCluster } from '@/lib/forced-unlock-calls';
import { useClusterActions, type ClusterPublishDiffView } from '../hooks/use-cluster-actions';
import { clusterScope } from '../logic/cluster-access';
import { useClusterEditor } from '../hooks/use-cluster-editor';
import { commonModules } from '../logic/composition';
import type { DragData, DropData } from '../logic/drop-rules';
import { clusterKeysFromSearch } from '../logic/page-params';
import { AllClustersArea } from './all-clusters-area';
import { ClusterBlock } from './cluster-block';
import { cornerCollision } from '@/components/editor/keyboard-dnd';
import { clusterDragAccessibility, jumpBetweenDropAreas } from './dnd';
import { CopyDialog } from './copy-dialog';
import { DiscontinuedTable } from './discontinued-table';
import { ModuleChip } from './module-chip';
import { ModuleSearchPanel } from './module-search-panel';
import classes from './cluster-editor-page.module.css';
import type { ClusterHistorySlotProps } from '@/components/editor/history-slots';

const EMPTY_CONTENT: ClusterVersionContent = { clusterDescription: null, stores: [], modules: [], lias: [], classifications: [] };

/** The area under the pointer (or the overlapping one); keyboard drags (no pointer): the area the arrows jumped to. */
const collision: CollisionDetection = (args) => {
  if (!args.pointerCoordinates) return cornerCollision(args);
  const under = pointerWithin(args);
  return under.length ? under : rectIntersection(args);
};

/**
 * The cluster page (part 2 §4): loading and locks, edits, and actions are hooks; this composes the screen. The History
 * panel and the publish confirmation's "what changes" are the item-versions feature's, composed in by `app/routes/cluster.tsx`.
 */
export function ClusterEditorPage({ historyPanel, publishDiff }: { historyPanel?: (props: ClusterHistorySlotProps) => ReactNode; publishDiff?: ClusterPublishDiffView } = {}) {
  const [params] = useSearchParams();
  const keys = useMemo(() => clusterKeysFromSearch(params), [params]);
  const editor = useClusterEditor(keys);
  const actions = useClusterActions(editor, publishDiff);
  const [historyKey, setHistoryKey] = useState<string | null>(null);
  const { state, compositions, changes, access, editableKeys, details, clusters } = editor;
  const { busy } = actions;
  const { classificationOptions, rangeFacing, percentage, discontinued } = editor.figures;
  const [copyOpen, setCopyOpen] = useState(false);
  const [dragging, setDragging] = useState<DragData | null>(null);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: jumpBetweenDropAreas }));
  // dnd-kit's live region speaks the module label and the cluster's label and month (issue 34).
  const baseNow = useRef(state.base);
  baseNow.current = state.base;
  const accessibility = useMemo(() => clusterDragAccessibility((k) => (baseNow.current[k] ? `${baseNow.current[k].clusterLabel} ${formatMonthId(baseNow.current[k].monthId)}` : undefined)), []);
  const onDragStart = (event: DragStartEvent) => setDragging((event.active.data.current as DragData) ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    setDragging(null);
    const from = event.active.data.current as DragData | undefined;
    const to = event.over?.data.current as DropData | undefined;
    if (from && to) editor.drop(from, to);
  };

  if (keys.length === 0)
    return (
      <Box p="xl">
        <AlertBar />
        <Text>
          No cluster to open. <Anchor component={Link} to={paths.home.path}>Back to home</Anchor>
        </Text>
      </Box>
    );
  if (details.isLoading) return <PageLoader />;
  if (details.isError || (details.data && details.data.length === 0))
    return (
      <Box p="xl">
        <AlertBar />
        <Text>We couldn't find the cluster you are looking for.</Text>
      </Box>
    );

  const months = [...new Set(clusters.map((c) => c.monthId))];
  const families = [...new Set(Object.values(compositions).flatMap((l) => l.map((m) => m.macroFamily)))].sort();
  const common = commonModules(compositions, state.order);
  const percentageBy = new Map((percentage.data?.clusterDtoList ?? []).map((p) => [clusterKeyString(p), p]));
  const facingBy = new Map((rangeFacing.data ?? []).map((r) => [clusterKeyString(r), r.rangeFacing]));

  return (
    <DndContext accessibility={accessibility} sensors={sensors} collisionDetection={collision} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)}>
      <Box pos="relative" style={{ flex: 1 }}>
        <LoadingOverlay visible={busy !== null} loaderProps={{ children: <Text fw={700}>{busy}</Text> }} zIndex={150} />
        <Paper radius={0} px="lg" py="sm" withBorder style={{ position: 'sticky', top: 64, zIndex: 100 }}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="md" wrap="nowrap" miw={0}>
              <Anchor component={Link} to={paths.home.path} fz="sm" aria-label="Home" style={{ flexShrink: 0 }}>
                <Group gap={4} wrap="nowrap">
                  <IconChevronLeft size={16} /> Home
                </Group>
              </Anchor>
              <Title order={3} style={{ whiteSpace: 'nowrap' }}>
                {editor.canEditAny ? CLUSTER_EDITOR_TEXTS.editCluster : CLUSTER_EDITOR_TEXTS.viewCluster}
              </Title>
              <Badge variant="light" size="lg" tt="none" data-testid="you-searched" style={{ flexShrink: 0 }}>
                {CLUSTER_EDITOR_TEXTS.youSearched(months.map(formatMonthId).join(', '))}
              </Badge>
              <Text fz="sm" c="dimmed" visibleFrom="lg" style={{ whiteSpace: 'nowrap' }}>
                {clusters.length} of at most {MAX_OPEN_CLUSTERS} clusters
              </Text>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <DisabledReason reason={!editor.canUndo && 'Nothing to undo'} label="Undo (Ctrl+Z)">
                <ActionIcon variant="default" size="lg" aria-label="Undo" onClick={editor.undo}>
                  <IconArrowBackUp size={18} />
                </ActionIcon>
              </DisabledReason>
              <DisabledReason reason={!editor.canRedo && 'Nothing to redo'} label="Redo (Ctrl+Shift+Z)">
                <ActionIcon variant="default" size="lg" aria-label="Redo" onClick={editor.redo}>
                  <IconArrowForwardUp size={18} />
                </ActionIcon>
              </DisabledReason>
              <DisabledReason reason={!actions.canOpenCopy && (busy !== null ? `Wait: ${busy}` : 'You need a copy right')}>
                <Button variant="default" leftSection={<IconCopy size={16} />} onClick={() => setCopyOpen(true)}>
                  COPY
                </Button>
              </DisabledReason>
              <DisabledReason reason={actions.saveDisabledReason}>
                <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => void actions.save()}>
                  {busy === CLUSTER_EDITOR_TEXTS.saving ? CLUSTER_EDITOR_TEXTS.saving : 'Save'}
                </Button>
              </DisabledReason>
              <DisabledReason reason={actions.publishDisabledReason}>
                <Button color="teal" leftSection={<IconSend size={16} />} onClick={() => void actions.publish()}>
                  {busy === CLUSTER_EDITOR_TEXTS.publishing ? CLUSTER_EDITOR_TEXTS.publishing : 'Publish'}
                </Button>
              </DisabledReason>
            </Group>
          </Group>
        </Paper>
        <Box p="lg">
          <AlertBar />
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 8, lg: 8.5 }}>
              <Stack gap="lg">
                {state.order.map((k) => {
                  const c = state.base[k]!;
                  return (
                    <ClusterBlock
                      key={k}
                      clusterKey={k}
                      cluster={c}
                      modules={compositions[k] ?? []}
                      description={state.descriptions[k] ?? ''}
                      lias={state.present.lias[k] ?? []}
                      classifications={state.classifications[k] ?? []}
                      classificationOptions={classificationOptions.data ?? c.classifications}
                      readOnly={access[k]?.reason ?? null}
                      lockedBy={access[k]?.lockedBy ?? null}
                      canUnlock={canEdit(editor.grants, clusterScope(c))}
                      onUnlock={async () => {
                        await forceUnlockCluster({ clusterId: c.clusterId, monthId: c.monthId });
                        await editor.retakeLocks();
                        await editor.reload();
                      }}
                      changed={!!changes[k]?.any}
                      rangeFacing={facingBy.get(k) ?? c.rangeFacing}
                      percentage={percentageBy.get(k)}
                      onRemove={(name) => editor.removeFrom(k, name)}
                      onRestore={(m) => editor.addTo(k, m)}
                      onDescription={(v) => editor.setDescription(k, v)}
                      onLias={(codes) => editor.setLias(k, codes)}
                      onClassifications={(ids) => editor.setClassifications(k, ids)}
                      {...(historyPanel ? { onHistory: () => setHistoryKey(k) } : {})}
                      notice={editor.live.notices[k]}
                      mayEdit={editor.live.mayEdit(k)}
                      onEditNow={() => editor.live.editNow(k)}
                      onReload={() => editor.live.reload(k)}
                    />
                  );
                })}
                <AllClustersArea common={common} bin={state.present.allBin} editable={editor.canEditAny && editableKeys.length > 0} onRemove={editor.removeFromAll} onRestore={editor.addToAll} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4, lg: 3.5 }}>
              <div className={classes.side}>
                <ModuleSearchPanel
                  key={months[0] ?? ''}
                  defaultMonth={months[0] ?? ''}
                  familyOptions={families}
                  targets={editableKeys.map((k) => ({ key: k, label: state.base[k]!.clusterLabel }))}
                  onAdd={(target, m) => (target === 'all' ? editor.addToAll(m) : editor.addTo(target, m))}
                />
                <DiscontinuedTable rows={discontinued.data ?? []} />
              </div>
            </Grid.Col>
          </Grid>
        </Box>
        {historyPanel &&
          (() => {
            const c = historyKey ? state.base[historyKey] : undefined;
            if (!historyKey || !c) return historyPanel({ opened: false, onClose: () => setHistoryKey(null), item: { clusterId: '', monthId: '', clusterLabel: '' }, current: EMPTY_CONTENT, classificationLabels: {}, canRestore: false, onRestore: async () => undefined });
            const labels = Object.fromEntries([...c.classifications, ...(classificationOptions.data ?? [])].map((o) => [o.classificationId, o.classificationLabel]));
            return historyPanel({
              opened: true,
              onClose: () => setHistoryKey(null),
              item: { clusterId: c.clusterId, monthId: c.monthId, clusterLabel: c.clusterLabel },
              current: {
                clusterDescription: state.descriptions[historyKey] ?? '',
                stores: c.stores.map((s) => s.storeJda),
                modules: (compositions[historyKey] ?? []).filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName),
                lias: state.present.lias[historyKey] ?? [],
                classifications: state.classifications[historyKey] ?? [],
              },
              classificationLabels: labels,
              canRestore: !!access[historyKey] && !access[historyKey].readOnly,
              onRestore: async ({ content, revertOf, skippedModules }) => {
                const notFound = await editor.restoreVersion(historyKey, {
                  modules: content.modules,
                  lias: content.lias,
                  description: content.clusterDescription ?? '',
                  classifications: content.classifications,
                  revertOf,
                });
                flash(`Version ${revertOf} loaded as unsaved changes: Save keeps it, Undo takes it back.`, 'info', { title: 'Version restored' });
                const skipped = [...skippedModules, ...notFound];
                if (skipped.length) showMessagePopup('Not restored', skipped.map((m) => `The module ${m} no longer exists in ${formatMonthId(c.monthId)}: it is not restored.`), 'orange');
              },
            });
          })()}
        <CopyDialog
          opened={copyOpen}
          clusters={keys}
          canSave={actions.copyRights.canSave}
          canSavePublish={actions.copyRights.canSavePublish}
          onClose={() => setCopyOpen(false)}
          onCopy={(m, p) => {
            setCopyOpen(false);
            void actions.copy(m, p);
          }}
        />
      </Box>
      <DragOverlay dropAnimation={null}>{dragging ? <ModuleChip module={dragging.module} /> : null}</DragOverlay>
    </DndContext>
  );
}
