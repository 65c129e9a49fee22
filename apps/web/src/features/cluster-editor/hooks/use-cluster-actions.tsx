/** Save, Publish and Copy of the cluster page, with the spec's questions and answers (part 2 §4, §5, §8). */
import { List, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { ClusterPublishDiffRequest } from '@bo/shared/item-versions';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { CLUSTER_PUBLISH_TEXTS, CLUSTER_SAVE_ERRORS, CLUSTER_TEXTS, type BlockingModule, type ClusterBlocking, type ClusterSaveAnswer } from '@bo/shared/clusters';
import { moduleKeyString } from '@bo/shared/item-keys';
import { PUBLISH_TEXTS, type ModuleKey } from '@bo/shared/modules';
import { canPublish, canSaveInCopy, canSavePublishInCopy, canUseCopyPopup } from '@bo/shared/permissions';
import { notPublishedLines, showPublishBlocked } from '@/components/editor/publish-outcome';
import { reportEditorFailure } from '@/components/editor/report-failure';
import { useSingleFlight } from '@/components/editor/single-flight';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup, splitMessages } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { formatMonthId } from '@/lib/format';
import { waitForJob } from '@/lib/jobs';
import { checkForPublish } from '../api/check-for-publish';
import { copyClusters } from '../api/copy-clusters';
import { copyResultLines, copySummary, type CopyOutcome } from '@bo/shared/copy-results';
import { publishClusters } from '../api/publish-clusters';
import { checkModulesForPublish, getModuleDetails, lockModules, publishModuleList, unlockModules } from '@/lib/module-calls';
import { useSession } from '@/lib/session';
import { askPublishBlockers } from '../components/publish-blockers-dialog';
import { saveClusters } from '../api/save-clusters';
import { clusterScope } from '../logic/cluster-access';
import { keyOf, toSaveBody } from '../logic/composition';
import type { ClusterEditor } from './use-cluster-editor';

function reportFailure(e: unknown) {
  if (e instanceof ApiError && e.key === 'modulesInWip') return showMessagePopup(CLUSTER_EDITOR_TEXTS.moduleInWipTitle, [CLUSTER_TEXTS.modulesInWip], 'orange');
  if (e instanceof ApiError && e.key === 'publishBlocked') return showMessagePopup(PUBLISH_TEXTS.notPublishedTitle, splitMessages(e.message));
  // A lost lock (clusterNotLocked): the spec's text, then what it means for the changes on screen.
  reportEditorFailure(e, { title: 'Error!', fallback: CLUSTER_EDITOR_TEXTS.contactAdministrator });
}

/** The lines of the save answer's error popup (part 2 §8); empty when everything was saved. */
function saveAnswerProblems(answer: ClusterSaveAnswer): string[] {
  const lines: string[] = [];
  const notAllowed = Object.entries(answer.errorsMap)
    .filter(([, errs]) => errs.includes(CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster))
    .map(([id]) => id);
  if (notAllowed.length) lines.push(CLUSTER_TEXTS.moduleNotAllowed(notAllowed));
  if (Object.values(answer.errorsMap).some((errs) => errs.some((e) => e !== CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster))) lines.push(CLUSTER_EDITOR_TEXTS.contactAdministrator);
  if (answer.unauthorizedList.length) lines.push(CLUSTER_TEXTS.cannotEdit(answer.unauthorizedList));
  return lines;
}

/**
 * 'Publish the blocking modules': lock the modules, check them, publish them (all or none), release the
 * locks, and wait for the planning system. True when every module is SUBMITTED; otherwise says why not.
 */
async function publishBlockingModules(modules: readonly BlockingModule[]): Promise<boolean> {
  const keys: ModuleKey[] = modules.map((m) => ({ moduleName: m.moduleName, monthId: m.monthId }));
  let held: ModuleKey[] = [];
  try {
    const locks = await lockModules(keys);
    held = locks.filter((l) => l.acquired).map((l) => ({ moduleName: l.moduleName, monthId: l.monthId }));
    const refused = locks.filter((l) => !l.acquired);
    if (refused.length) {
      showMessagePopup('Error!', refused.map((l) => (l.userLock ? `The module ${l.moduleName} is locked by ${l.userLock}` : `You cannot open the module ${l.moduleName} for publishing`)));
      return false;
    }
    const { blocking } = await checkModulesForPublish(keys);
    if (blocking.length) {
      await showPublishBlocked(blocking.map((b) => ({ name: `${b.moduleLabel} (${b.moduleName}, ${formatMonthId(b.monthId)})`, lines: b.reasons.map((r) => r.message) })));
      return false;
    }
    const answer = await publishModuleList(keys);
    if (answer.errors?.length) {
      showMessagePopup(PUBLISH_TEXTS.notPublishedTitle, answer.errors.flatMap(splitMessages));
      return false;
    }
    if (answer.jobId !== undefined) await waitForJob(answer.jobId, { firstMs: 500 });
    const fresh = await getModuleDetails(keys);
    const notSubmitted = fresh.filter((d) => d.status !== 'SUBMITTED');
    if (notSubmitted.length) {
      showMessagePopup(
        PUBLISH_TEXTS.notPublishedTitle,
        notSubmitted.flatMap((d) => notPublishedLines(`${d.moduleLabel} (${d.moduleName})`, d.rpasErrors ?? (d.status === 'SUBMIT_IN_PROGRESS' ? 'the submission is still running' : null))),
      );
      return false;
    }
    flash(`${fresh.map((d) => `${d.moduleLabel} (${d.moduleName})`).join(', ')}: SUBMITTED`);
    return true;
  } catch (e) {
    reportFailure(e);
    return false;
  } finally {
    if (held.length) await unlockModules(held).catch(() => undefined);
  }
}

/** "What changes" in the publish confirmation (the item-versions feature draws it; the app route hands it in). */
export type ClusterPublishDiffView = (props: { items: ClusterPublishDiffRequest; labels: Record<string, string> }) => ReactNode;

export function useClusterActions(editor: ClusterEditor, publishDiff?: ClusterPublishDiffView) {
  const { state, compositions, changes, access, editableKeys, grants, keys, clusters } = editor;
  const [busy, setBusy] = useState<string | null>(null);
  const username = useSession((st) => st.user?.username) ?? '';
  const flight = useSingleFlight();

  const bodyOf = (k: string) => toSaveBody(state.base[k]!, compositions[k] ?? [], state.descriptions[k] ?? '', state.present.lias[k] ?? [], state.classifications[k] ?? []);
  const changedKeys = editableKeys.filter((k) => changes[k]?.any);
  const publishable = editableKeys.filter((k) => access[k]?.canPublish);
  const liaMissing = (list: string[]) => list.filter((k) => (state.present.lias[k] ?? []).length === 0);
  /** The spec's 'At least one lia must be selected', naming the clusters without one and the way back. */
  const liaMissingLines = (list: string[]) => [
    `${CLUSTER_TEXTS.atLeastOneLia}: ${list.map((k) => `${state.base[k]!.clusterLabel} (${state.base[k]!.clusterId})`).join(', ')}.`,
    'Choose a LIA in the cluster footer, or undo the removal (Undo, Ctrl+Z), then save again.',
  ];

  /** The first read-only reason of the page's clusters (they are all read-only when this is asked). */
  const readOnlyReason = () => (keys.map((k) => access[keyOf(k)]?.reason).find(Boolean) ?? CLUSTER_EDITOR_TEXTS.contactAdministrator);
  const saveDisabledReason: string | null = busy
    ? `Wait: ${busy}`
    : editableKeys.length === 0
      ? readOnlyReason()
      : changedKeys.length === 0
        ? 'Nothing to save: no change since the clusters were loaded or saved.'
        : null;
  const publishDisabledReason: string | null = busy
    ? `Wait: ${busy}`
    : publishable.length > 0
      ? null
      : editableKeys.length === 0
        ? readOnlyReason()
        : !editableKeys.some((k) => canPublish(grants, clusterScope(state.base[k]!)))
          ? 'You may not publish these clusters: you have no submit right on their brand and zones.'
          : CLUSTER_TEXTS.notWip;

  const confirmDescription = async (list: string[]) =>
    !list.some((k) => changes[k]?.description) || (await confirmDialog({ title: 'Attention!', message: CLUSTER_EDITOR_TEXTS.confirmDescription }));

  const save = async () => {
    if (changedKeys.length === 0 || busy) return;
    if (liaMissing(changedKeys).length) return showMessagePopup('Error!', liaMissingLines(liaMissing(changedKeys)));
    if (!(await confirmDescription(changedKeys))) return;
    setBusy(CLUSTER_EDITOR_TEXTS.saving);
    try {
      // A cluster holding a restored version is saved in its own call with ?revertOf=n (the save records the revert);
      // the others together, as before.
      const reverts = state.present.revertOf ?? {};
      const restored = changedKeys.filter((k) => reverts[k] !== undefined);
      const plain = changedKeys.filter((k) => !restored.includes(k));
      const answers = [
        ...(plain.length ? [await saveClusters(plain.map(bodyOf))] : []),
        ...(await Promise.all(restored.map((k) => saveClusters([bodyOf(k)], false, reverts[k])))),
      ];
      const problems = answers.flatMap(saveAnswerProblems);
      const saved = answers.flatMap((a) => a.clusterDtoList);
      if (problems.length) {
        if (saved.length) editor.applyServer(saved);
        return showMessagePopup('Error!', problems);
      }
      editor.applyServer(saved);
      editor.refreshDiscontinued();
      flash(CLUSTER_EDITOR_TEXTS.saved);
    } catch (e) {
      reportFailure(e);
    } finally {
      setBusy(null);
    }
  };

  /**
   * The per-cluster step (issue 34 item 3, docs/LIFECYCLE.md "Publish per cluster"): the server's checks of
   * every cluster of the page. Nothing blocks: all go on. Something blocks: the Publish dialog lists each
   * cluster ready or waiting with its blockers; the planner publishes the ready ones (the others wait), or
   * publishes the blocking modules (confirmed) and the clusters are checked again. Answers the clusters that
   * go on to the spec's LIA confirmation, or null when the planner stops.
   */
  const choosePublishable = async (): Promise<string[] | null> => {
    for (;;) {
      setBusy(CLUSTER_PUBLISH_TEXTS.checking);
      let blocking: ClusterBlocking[];
      try {
        blocking = (await checkForPublish(publishable.map(bodyOf))).blocking;
      } catch (e) {
        reportFailure(e);
        return null;
      } finally {
        setBusy(null);
      }
      if (blocking.length === 0) return publishable;
      const waiting = new Set(blocking.map((b) => keyOf(b)));
      const ready = publishable.filter((k) => !waiting.has(k));
      const choice = await askPublishBlockers(
        ready.map((k) => state.base[k]!),
        blocking,
        username,
      );
      if (choice.kind === 'close') return null;
      if (choice.kind === 'publishReady') return ready;
      const ok = await confirmDialog({
        title: CLUSTER_PUBLISH_TEXTS.confirmModulesTitle,
        confirmLabel: CLUSTER_PUBLISH_TEXTS.confirmModules(choice.modules.length),
        cancelLabel: 'Cancel',
        size: 'lg',
        message: (
          <Stack gap={6} data-testid="publish-modules-confirm">
            <Text fz="sm">{CLUSTER_PUBLISH_TEXTS.confirmModulesIntro}</Text>
            <List size="sm">
              {choice.modules.map((m) => (
                <List.Item key={moduleKeyString(m)}>
                  <b>{m.moduleLabel}</b> ({m.moduleName}, {formatMonthId(m.monthId)})
                </List.Item>
              ))}
            </List>
          </Stack>
        ),
      });
      if (!ok) continue;
      setBusy(PUBLISH_TEXTS.publishingModules);
      const done = await publishBlockingModules(choice.modules);
      setBusy(null);
      if (!done) return null;
      // The module chips show the modules' new status; the page's unsaved edits stay.
      await editor.reload().catch(() => undefined);
    }
  };

  const publish = async () => {
    if (publishable.length === 0 || busy) return;
    const going = await choosePublishable();
    if (!going || going.length === 0) return;
    if (liaMissing(going).length) return showMessagePopup('Error!', liaMissingLines(liaMissing(going)));
    const liaOk = await confirmDialog({
      title: 'Publish',
      confirmLabel: 'Publish',
      cancelLabel: 'Cancel',
      message: (
        <Stack gap={6} data-testid="publish-lia-confirm">
          <Text fz="sm">The clusters will be published to the planning system with these LIAs:</Text>
          <List size="sm">
            {going.map((k) => (
              <List.Item key={k}>
                <b>{state.base[k]!.clusterLabel}</b>: {(state.present.lias[k] ?? []).join(', ')}
              </List.Item>
            ))}
          </List>
          {publishDiff && going.some((k) => changes[k]?.any) && (
            <Text fz="xs" c="var(--bo-warning-text)">
              The comparison below is of the saved clusters: this publish also saves the changes on screen.
            </Text>
          )}
          {publishDiff?.({
            items: going.map((k) => ({ clusterId: state.base[k]!.clusterId, monthId: state.base[k]!.monthId })),
            labels: Object.fromEntries(going.map((k) => [state.base[k]!.clusterId, state.base[k]!.clusterLabel])),
          })}
        </Stack>
      ),
    });
    if (!liaOk || !(await confirmDescription(going))) return;
    setBusy(CLUSTER_EDITOR_TEXTS.publishing);
    try {
      const bodies = going.map(bodyOf);
      const { clusterDuplicatedResponseMap: twins, blocking } = await checkForPublish(bodies);
      if (blocking.length) {
        // Something changed since the dialog (a module went back to WIP): say why, send nothing.
        await showPublishBlocked(blocking.map((b) => ({ name: `${b.clusterLabel} (${b.clusterId}, ${formatMonthId(b.monthId)})`, lines: b.reasons.map((r) => r.message) })));
        return;
      }
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
      const answer = await publishClusters(bodies);
      flash(answer.message || CLUSTER_EDITOR_TEXTS.submissionStarted);
      // The server publishes the clusters without blockers; one that a change made meanwhile blocks waits.
      const waited = answer.clusters.filter((c) => !c.published);
      if (waited.length)
        showMessagePopup(
          CLUSTER_PUBLISH_TEXTS.partlyPublished,
          waited.flatMap((c) => c.reasons.map((r) => CLUSTER_PUBLISH_TEXTS.notPublishedLine(`${c.clusterLabel} (${c.clusterId})`, r.message))),
          'orange',
        );
      // The clusters that wait keep their unsaved edits (reload keeps the page's edits when there are any).
      await editor.reload();
      void waitForJob(answer.jobId).then(async () => {
        const fresh = await editor.reload();
        // A rejection is an outcome: the page says plainly what was not published, and why.
        const rejected = fresh.filter((c) => going.includes(keyOf(c)) && c.status === 'WIP' && c.rpasErrors);
        if (rejected.length) showMessagePopup(PUBLISH_TEXTS.notPublishedTitle, rejected.flatMap((c) => notPublishedLines(`${c.clusterLabel} (${c.clusterId})`, c.rpasErrors)));
      });
    } catch (e) {
      reportFailure(e);
    } finally {
      setBusy(null);
    }
  };

  const copy = async (months: string[], toPublish: boolean) => {
    setBusy('Copying...');
    try {
      const sources = clusters.map((c) => ({ clusterId: c.clusterId, monthId: c.monthId, destinationMonthList: months }));
      const answer = await copyClusters({ clusters: sources, toPublish });
      let errors = answer.errors;
      let outcome = answer.outcome;
      if (!answer.completed) {
        const job = await waitForJob(answer.jobId);
        errors = ((job.result as { errors?: typeof errors } | null)?.errors ?? []) as typeof errors;
        outcome = (job.result as { outcome?: CopyOutcome } | null)?.outcome;
      }
      if (outcome) {
        // Copied, published, not published and failed months, each said for what it is (issue 34 item 2).
        const problems = outcome.counts.failed + outcome.counts.notPublished > 0;
        showMessagePopup(problems ? 'Copy' : 'Copy done', [copySummary(outcome), ...copyResultLines('cluster', outcome).map((l) => l.text)], problems ? 'orange' : 'blue');
        return;
      }
      const lines: string[] = [];
      for (const c of sources) {
        const failed = [...new Set(errors.filter((e) => e.clusterId === c.clusterId).flatMap((e) => e.months))];
        const done = months.filter((m) => !failed.includes(m));
        if (failed.length) lines.push(CLUSTER_EDITOR_TEXTS.unableToCopy(c.clusterId, failed.map(formatMonthId)));
        if (done.length) lines.push(CLUSTER_EDITOR_TEXTS.copied(c.clusterId, done.map(formatMonthId)));
      }
      const reasons = errors.map((e) => `${e.clusterId} (${e.months.map(formatMonthId).join(', ')}): ${e.message}`);
      showMessagePopup(errors.length ? 'Copy' : 'Copy done', [...lines, ...reasons], errors.length ? 'orange' : 'blue');
    } catch (e) {
      reportFailure(e);
    } finally {
      setBusy(null);
    }
  };

  // Save, Publish and Copy run one at a time: a double click (before the buttons re-render disabled) sends one request.
  return {
    busy,
    save: () => flight(PAGE_ACTION, save),
    publish: () => flight(PAGE_ACTION, publish),
    copy: (months: string[], toPublish: boolean) => flight(PAGE_ACTION, () => copy(months, toPublish)),
    // A cluster without LIA keeps Save on: the click says which cluster needs one (the server refuses it too).
    canSave: saveDisabledReason === null,
    canPublish: publishDisabledReason === null,
    /** Why Save / Publish are disabled (their tooltip and accessible description); null when usable. */
    saveDisabledReason,
    publishDisabledReason,
    canOpenCopy: canUseCopyPopup(grants) && busy === null,
    copyRights: { canSave: canSaveInCopy(grants), canSavePublish: canSavePublishInCopy(grants) },
  };
}

/** The single-flight key of the page's actions (they exclude each other: one `busy` for the page). */
const PAGE_ACTION = 'cluster-page';
