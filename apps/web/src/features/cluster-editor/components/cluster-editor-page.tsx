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
import { ActionIcon, Anchor, Badge, Box, Button, Grid, Group, List, LoadingOverlay, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp, IconChevronLeft, IconCopy, IconDeviceFloppy, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CLUSTER_EDITOR_TEXTS, MAX_OPEN_CLUSTERS } from '@bo/shared/cluster-editor';
import { CLUSTER_SAVE_ERRORS, CLUSTER_TEXTS, type ClusterDto, type ClusterKey, type ClusterSaveAnswer } from '@bo/shared/clusters';
import { canEdit, canPublish, canSaveInCopy, canSavePublishInCopy, canUseCopyPopup, clusterReadOnlyReason } from '@bo/shared/permissions';
import { AlertBar } from '@/components/ui/alert-bar';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { PageLoader } from '@/components/ui/page-loader';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { checkForPublish } from '../api/check-for-publish';
import { copyClusters } from '../api/copy-clusters';
import { useClassificationOptions } from '../api/get-classification-options';
import { getClusterDetails } from '../api/get-cluster-details';
import { useClusterPercentage } from '../api/get-cluster-percentage';
import { useDiscontinuedModules } from '../api/get-discontinued-modules';
import { waitForJob } from '@/lib/jobs';
import { useRangeFacing } from '../api/get-range-facing';
import { publishClusters } from '../api/publish-clusters';
import { saveClusters } from '../api/save-clusters';
import { useClusterLocks } from '../hooks/use-cluster-locks';
import { useComposition } from '../hooks/use-composition';
import { useLeaveGuard } from '../hooks/use-leave-guard';
import { useUndoKeys } from '../hooks/use-undo-keys';
import { addModule, commonModules, keyOf, removeModule, toSaveBody, type Compositions, type EditorModule } from '../logic/composition';
import { AllClustersArea } from './all-clusters-area';
import { ClusterBlock } from './cluster-block';
import { CopyDialog } from './copy-dialog';
import type { DragData, DropData } from './dnd';
import { DiscontinuedTable } from './discontinued-table';
import { ModuleChip } from './module-chip';
import { ModuleSearchPanel } from './module-search-panel';

/**
 * The clusters the URL opens: `?clusterId=C1&monthId=M01_2027` (a new tab) or, from home,
 * `?clusters=C1|M01_2027,C2|M01_2027` (at most 30; docs/web-app.md).
 */
export function clusterKeysFromSearch(params: URLSearchParams): ClusterKey[] {
  const keys: ClusterKey[] = [];
  const single = { clusterId: params.get('clusterId'), monthId: params.get('monthId') };
  if (single.clusterId && single.monthId) keys.push({ clusterId: single.clusterId, monthId: single.monthId });
  for (const part of (params.get('clusters') ?? '').split(',')) {
    const [clusterId, monthId] = part.split('|');
    if (clusterId && monthId) keys.push({ clusterId, monthId });
  }
  const seen = new Set<string>();
  return keys.filter((k) => !seen.has(keyOf(k)) && !!seen.add(keyOf(k))).slice(0, MAX_OPEN_CLUSTERS);
}

/** The area under the pointer; keyboard drags (no pointer) fall back to the overlapping area. */
const collision: CollisionDetection = (args) => {
  const under = pointerWithin(args);
  return under.length ? under : rectIntersection(args);
};

const READ_ONLY_TEXT: Record<string, string> = {
  noEditGrant: 'Read only: you may not edit this cluster',
  releaseClosed: 'Read only: the release is closed',
  submitInProgress: 'Read only: the submission is in progress',
  monthClosed: 'Read only: the month is closed',
  notLocked: 'Read only: the cluster could not be locked',
};

export function ClusterEditorPage() {
  const [params] = useSearchParams();
  const keys = useMemo(() => clusterKeysFromSearch(params), [params]);
  const signature = keys.map(keyOf).join(',');
  const grants = useSession((s) => s.grants) ?? [];
  const username = useSession((s) => s.user?.username) ?? '';

  const details = useQuery({
    queryKey: ['cluster-editor', 'details', signature],
    queryFn: () => getClusterDetails(keys),
    enabled: keys.length > 0,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
  const editor = useComposition();
  const { state, changes, dirty, load, refresh, compose } = editor;
  useEffect(() => {
    if (details.data) load(details.data);
  }, [details.data, load]);

  const locks = useClusterLocks(keys);
  const classifications = useClassificationOptions();
  const [busy, setBusy] = useState<string | null>(null);
  const [copyOpen, setCopyOpen] = useState(false);
  const [discoVersion, setDiscoVersion] = useState(0);
  const [dragging, setDragging] = useState<DragData | null>(null);

  useLeaveGuard(dirty);
  useUndoKeys(editor.undo, editor.redo);

  const clusters = state.order.map((k) => state.base[k]!).filter(Boolean);
  const scopeOf = (c: ClusterDto) => ({ brand: c.brandCode, zones: c.starZones });

  /** Why each cluster is read-only for the caller (null = editable). */
  const readOnly = useMemo(() => {
    const out: Record<string, string | null> = {};
    for (const c of clusters) {
      const key = keyOf(c);
      const lock = locks?.[key];
      const reason = clusterReadOnlyReason(grants, username, scopeOf(c), { status: c.status, releaseClosed: c.releaseClosed, lockedBy: lock?.userLock ?? c.userLock });
      if (reason === 'lockedByOther') out[key] = CLUSTER_EDITOR_TEXTS.lockedBy(lock?.userLock ?? c.userLock ?? '');
      else if (reason) out[key] = READ_ONLY_TEXT[reason] ?? reason;
      else if (!c.inOpenMonth) out[key] = READ_ONLY_TEXT.monthClosed!;
      else if (locks && !lock?.acquired) out[key] = READ_ONLY_TEXT.notLocked!;
      else if (!locks) out[key] = 'Locking…';
      else out[key] = null;
    }
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clusters, locks, grants, username]);

  const editableKeys = state.order.filter((k) => readOnly[k] === null);
  const canEditAny = clusters.some((c) => canEdit(grants, scopeOf(c)));
  const compositions = state.present.compositions;

  const rangeFacing = useRangeFacing(keys);
  const percentageRequest = useMemo(
    () =>
      state.order.map((k) => {
        const c = state.base[k]!;
        return { clusterId: c.clusterId, monthId: c.monthId, modules: (compositions[k] ?? []).map((m) => ({ moduleName: m.moduleName, clusterCompositionStatus: m.clusterCompositionStatus })) };
      }),
    [state.order, state.base, compositions],
  );
  const percentage = useClusterPercentage(percentageRequest);
  const disco = useDiscontinuedModules(keys, discoVersion);

  // ───────────── composition changes ─────────────

  const addTo = useCallback(
    (key: string, module: EditorModule) => {
      if (readOnly[key] !== null) return;
      const { list, outcome } = addModule(compositions[key] ?? [], module);
      if (outcome === 'present') return showMessagePopup('Error!', CLUSTER_EDITOR_TEXTS.moduleAlreadyPresent);
      compose({ ...compositions, [key]: list });
    },
    [compositions, compose, readOnly],
  );

  const removeFrom = (key: string, moduleName: string) => {
    if (readOnly[key] !== null) return;
    compose({ ...compositions, [key]: removeModule(compositions[key] ?? [], moduleName) });
  };

  const addToAll = useCallback(
    (module: EditorModule) => {
      const targets = editableKeys.filter((k) => state.base[k]!.brandCode === module.brand);
      if (targets.length === 0) return showMessagePopup('Error!', `No open cluster of the brand ${module.brand} can be edited`);
      const next: Compositions = { ...compositions };
      let changed = false;
      for (const k of targets) {
        const { list, outcome } = addModule(next[k] ?? [], module);
        if (outcome !== 'present') {
          next[k] = list;
          changed = true;
        }
      }
      if (!changed) return showMessagePopup('Error!', CLUSTER_EDITOR_TEXTS.moduleAlreadyPresent);
      compose(next, state.present.allBin.filter((m) => m.moduleName !== module.moduleName));
    },
    [compositions, compose, editableKeys, state.base, state.present.allBin],
  );

  const removeFromAll = (module: EditorModule) => {
    const next: Compositions = { ...compositions };
    for (const k of editableKeys) next[k] = removeModule(next[k] ?? [], module.moduleName);
    compose(next, [...state.present.allBin.filter((m) => m.moduleName !== module.moduleName), { ...module, clusterCompositionStatus: 'REMOVED' }]);
  };

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor));

  const onDragEnd = (event: DragEndEvent) => {
    setDragging(null);
    const from = event.active.data.current as DragData | undefined;
    const to = event.over?.data.current as DropData | undefined;
    if (!from || !to) return;
    if (to.zone === 'cluster' && to.key) {
      if (from.source === 'cluster' && from.key === to.key) return;
      addTo(to.key, from.module);
    } else if (to.zone === 'bin' && to.key) {
      if ((from.source === 'cluster' && from.key === to.key) || from.source === 'all') removeFrom(to.key, from.module.moduleName);
    } else if (to.zone === 'all') {
      if (from.source !== 'all') addToAll(from.module);
    } else if (to.zone === 'allBin') {
      if (from.source === 'all') removeFromAll(from.module);
    }
  };
  const onDragStart = (event: DragStartEvent) => setDragging((event.active.data.current as DragData) ?? null);

  // ───────────── save and publish ─────────────

  const bodyOf = (k: string) => toSaveBody(state.base[k]!, compositions[k] ?? [], state.descriptions[k] ?? '', state.lias[k] ?? [], state.classifications[k] ?? []);
  const changedKeys = editableKeys.filter((k) => changes[k]?.any);
  const liaMissing = (list: string[]) => list.filter((k) => (state.lias[k] ?? []).length === 0);

  /** Puts fresh server answers in place of the edited clusters (the others keep their state). */
  const applyServer = (fresh: ClusterDto[]) => {
    const byKey = new Map(fresh.map((c) => [keyOf(c), c]));
    load(state.order.map((k) => byKey.get(k) ?? state.base[k]!));
  };

  const reportFailure = (e: unknown) => {
    if (e instanceof ApiError && e.status === 422 && e.key === 'clusterNotLocked') return showMessagePopup('Error!', CLUSTER_TEXTS.clusterNotLocked);
    if (e instanceof ApiError && e.key === 'modulesInWip') return showMessagePopup(CLUSTER_EDITOR_TEXTS.moduleInWipTitle, [CLUSTER_TEXTS.modulesInWip], 'orange');
    showMessagePopup('Error!', e instanceof Error ? e.message : CLUSTER_EDITOR_TEXTS.contactAdministrator);
  };

  const saveAnswerProblems = (answer: ClusterSaveAnswer): string[] => {
    const lines: string[] = [];
    const notAllowed = Object.entries(answer.errorsMap)
      .filter(([, errs]) => errs.includes(CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster))
      .map(([id]) => id);
    if (notAllowed.length) lines.push(CLUSTER_TEXTS.moduleNotAllowed(notAllowed));
    if (Object.values(answer.errorsMap).some((errs) => errs.some((e) => e !== CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster))) lines.push(CLUSTER_EDITOR_TEXTS.contactAdministrator);
    if (answer.unauthorizedList.length) lines.push(CLUSTER_TEXTS.cannotEdit(answer.unauthorizedList));
    return lines;
  };

  const confirmDescription = async (list: string[]) =>
    !list.some((k) => changes[k]?.description) || (await confirmDialog({ title: 'Attention!', message: CLUSTER_EDITOR_TEXTS.confirmDescription }));

  const save = async () => {
    if (changedKeys.length === 0 || busy) return;
    if (liaMissing(changedKeys).length) return showMessagePopup('Error!', CLUSTER_TEXTS.atLeastOneLia);
    if (!(await confirmDescription(changedKeys))) return;
    setBusy(CLUSTER_EDITOR_TEXTS.saving);
    try {
      const answer = await saveClusters(changedKeys.map(bodyOf));
      const problems = saveAnswerProblems(answer);
      if (problems.length) return showMessagePopup('Error!', problems);
      applyServer(answer.clusterDtoList);
      setDiscoVersion((v) => v + 1);
      flash(CLUSTER_EDITOR_TEXTS.saved);
    } catch (e) {
      reportFailure(e);
    } finally {
      setBusy(null);
    }
  };

  const publishable = editableKeys.filter((k) => state.base[k]!.status === 'WIP' && canPublish(grants, scopeOf(state.base[k]!)));

  const reload = async () => {
    const fresh = await getClusterDetails(keys);
    if (dirty) refresh(fresh);
    else load(fresh);
    return fresh;
  };

  const publish = async () => {
    if (publishable.length === 0 || busy) return;
    const wip = publishable.flatMap((k) => (compositions[k] ?? []).filter((m) => m.clusterCompositionStatus === 'ADDED' && m.status === 'WIP').map((m) => `${state.base[k]!.clusterId}: ${m.moduleLabel}`));
    if (wip.length) return showMessagePopup(CLUSTER_EDITOR_TEXTS.moduleInWipTitle, [CLUSTER_TEXTS.modulesInWip, ...wip], 'orange');
    if (liaMissing(publishable).length) return showMessagePopup('Error!', CLUSTER_TEXTS.atLeastOneLia);
    const liaOk = await confirmDialog({
      title: 'Publish',
      confirmLabel: 'Publish',
      cancelLabel: 'Cancel',
      message: (
        <Stack gap={6} data-testid="publish-lia-confirm">
          <Text fz="sm">The clusters will be published to the planning system with these LIAs:</Text>
          <List size="sm">
            {publishable.map((k) => (
              <List.Item key={k}>
                <b>{state.base[k]!.clusterLabel}</b>: {(state.lias[k] ?? []).join(', ')}
              </List.Item>
            ))}
          </List>
        </Stack>
      ),
    });
    if (!liaOk || !(await confirmDescription(publishable))) return;
    setBusy(CLUSTER_EDITOR_TEXTS.publishing);
    try {
      const bodies = publishable.map(bodyOf);
      const { clusterDuplicatedResponseMap: twins } = await checkForPublish(bodies);
      const entries = Object.entries(twins);
      if (entries.length) {
        const anyway = await confirmDialog({
          title: 'Identical clusters',
          confirmLabel: CLUSTER_EDITOR_TEXTS.publishAnyway,
          cancelLabel: CLUSTER_EDITOR_TEXTS.doNotPublish,
          message: (
            <Stack gap={6} data-testid="duplicate-popup">
              <Text fz="sm">These clusters have exactly the same modules as other clusters of the month:</Text>
              <List size="sm">
                {entries.map(([id, others]) => (
                  <List.Item key={id}>
                    <b>{id}</b> is identical to {others.join(', ')}
                  </List.Item>
                ))}
              </List>
            </Stack>
          ),
        });
        if (!anyway) return;
      }
      const { message, jobId } = await publishClusters(bodies);
      flash(message || CLUSTER_EDITOR_TEXTS.submissionStarted);
      load(await getClusterDetails(keys));
      void waitForJob(jobId).then(async () => {
        const fresh = await reload();
        const warnings = fresh.filter((c) => publishable.includes(keyOf(c)) && c.rpasErrors);
        if (warnings.length) showMessagePopup('Warning', warnings.flatMap((c) => (c.rpasErrors ?? '').split(';').map((w) => `${c.clusterId}: ${w.trim()}`)), 'orange');
      });
    } catch (e) {
      reportFailure(e);
    } finally {
      setBusy(null);
    }
  };

  const copy = async (months: string[], toPublish: boolean) => {
    setCopyOpen(false);
    setBusy('Copying...');
    try {
      const sources = clusters.map((c) => ({ clusterId: c.clusterId, monthId: c.monthId, destinationMonthList: months }));
      const answer = await copyClusters({ clusters: sources, toPublish });
      let errors = answer.errors;
      if (!answer.completed) {
        const job = await waitForJob(answer.jobId);
        errors = ((job.result as { errors?: typeof errors } | null)?.errors ?? []) as typeof errors;
      }
      const lines: string[] = [];
      for (const c of sources) {
        const failed = [...new Set(errors.filter((e) => e.clusterId === c.clusterId).flatMap((e) => e.months))];
        const done = months.filter((m) => !failed.includes(m));
        if (failed.length) lines.push(CLUSTER_EDITOR_TEXTS.unableToCopy(c.clusterId, failed));
        if (done.length) lines.push(CLUSTER_EDITOR_TEXTS.copied(c.clusterId, done));
      }
      const reasons = errors.map((e) => `${e.clusterId} (${e.months.join(', ')}): ${e.message}`);
      showMessagePopup(errors.length ? 'Copy' : 'Copy done', [...lines, ...reasons], errors.length ? 'orange' : 'blue');
    } catch (e) {
      reportFailure(e);
    } finally {
      setBusy(null);
    }
  };

  // ───────────── render ─────────────

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
  const percentageBy = new Map((percentage.data?.clusterDtoList ?? []).map((p) => [`${p.clusterId}|${p.monthId}`, p]));
  const facingBy = new Map((rangeFacing.data ?? []).map((r) => [`${r.clusterId}|${r.monthId}`, r.rangeFacing]));

  return (
    <DndContext sensors={sensors} collisionDetection={collision} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)}>
      <Box pos="relative" style={{ flex: 1 }}>
        <LoadingOverlay visible={busy !== null} loaderProps={{ children: <Text fw={700}>{busy}</Text> }} zIndex={150} />
        <Paper radius={0} px="lg" py="sm" withBorder style={{ position: 'sticky', top: 64, zIndex: 100 }}>
          <Group justify="space-between" wrap="nowrap">
            <Group gap="md" wrap="nowrap">
              <Anchor component={Link} to={paths.home.path} fz="sm" aria-label="Home">
                <Group gap={4}>
                  <IconChevronLeft size={16} /> Home
                </Group>
              </Anchor>
              <Title order={3}>{CLUSTER_EDITOR_TEXTS.editCluster}</Title>
              <Badge variant="light" size="lg" tt="none" data-testid="you-searched">
                {CLUSTER_EDITOR_TEXTS.youSearched(months.join(', '))}
              </Badge>
              <Text fz="sm" c="dimmed">
                {clusters.length} of at most {MAX_OPEN_CLUSTERS} clusters
              </Text>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <Tooltip label="Undo (Ctrl+Z)">
                <ActionIcon variant="default" size="lg" aria-label="Undo" disabled={!editor.canUndo} onClick={editor.undo}>
                  <IconArrowBackUp size={18} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Redo (Ctrl+Shift+Z)">
                <ActionIcon variant="default" size="lg" aria-label="Redo" disabled={!editor.canRedo} onClick={editor.redo}>
                  <IconArrowForwardUp size={18} />
                </ActionIcon>
              </Tooltip>
              <Button variant="default" leftSection={<IconCopy size={16} />} disabled={!canUseCopyPopup(grants) || busy !== null} onClick={() => setCopyOpen(true)}>
                COPY
              </Button>
              <Button leftSection={<IconDeviceFloppy size={16} />} disabled={changedKeys.length === 0 || busy !== null || liaMissing(changedKeys).length > 0} onClick={() => void save()}>
                {busy === CLUSTER_EDITOR_TEXTS.saving ? CLUSTER_EDITOR_TEXTS.saving : 'Save'}
              </Button>
              <Button color="teal" leftSection={<IconSend size={16} />} disabled={publishable.length === 0 || busy !== null} onClick={() => void publish()}>
                {busy === CLUSTER_EDITOR_TEXTS.publishing ? CLUSTER_EDITOR_TEXTS.publishing : 'Publish'}
              </Button>
            </Group>
          </Group>
        </Paper>
        <Box p="lg">
          <AlertBar />
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8.5 }}>
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
                      lias={state.lias[k] ?? []}
                      classifications={state.classifications[k] ?? []}
                      classificationOptions={classifications.data ?? c.classifications}
                      readOnly={readOnly[k] ?? null}
                      changed={!!changes[k]?.any}
                      rangeFacing={facingBy.get(k) ?? c.rangeFacing}
                      percentage={percentageBy.get(k)}
                      onRemove={(name) => removeFrom(k, name)}
                      onRestore={(m) => addTo(k, m)}
                      onDescription={(v) => editor.setDescription(k, v)}
                      onLias={(codes) => editor.setLias(k, codes)}
                      onClassifications={(ids) => editor.setClassifications(k, ids)}
                    />
                  );
                })}
                <AllClustersArea common={common} bin={state.present.allBin} editable={canEditAny && editableKeys.length > 0} onRemove={removeFromAll} onRestore={addToAll} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 3.5 }}>
              <Stack gap="lg" style={{ position: 'sticky', top: 140, maxHeight: 'calc(100dvh - 156px)', overflowY: 'auto', paddingBottom: 8 }}>
                <ModuleSearchPanel
                  key={months[0] ?? ''}
                  defaultMonth={months[0] ?? ''}
                  familyOptions={families}
                  targets={editableKeys.map((k) => ({ key: k, label: state.base[k]!.clusterLabel }))}
                  onAdd={(target, m) => (target === 'all' ? addToAll(m) : addTo(target, m))}
                />
                <DiscontinuedTable rows={disco.data ?? []} />
              </Stack>
            </Grid.Col>
          </Grid>
        </Box>
        <CopyDialog
          opened={copyOpen}
          clusters={keys}
          canSave={canSaveInCopy(grants)}
          canSavePublish={canSavePublishInCopy(grants)}
          onClose={() => setCopyOpen(false)}
          onCopy={(m, p) => void copy(m, p)}
        />
      </Box>
      <DragOverlay dropAnimation={null}>{dragging ? <ModuleChip module={dragging.module} /> : null}</DragOverlay>
    </DndContext>
  );
}
