/** Save, Publish and Copy of the cluster page, with the spec's questions and answers (part 2 §4, §5, §8). */
import { List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { CLUSTER_SAVE_ERRORS, CLUSTER_TEXTS, type ClusterSaveAnswer } from '@bo/shared/clusters';
import { canSaveInCopy, canSavePublishInCopy, canUseCopyPopup } from '@bo/shared/permissions';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { waitForJob } from '@/lib/jobs';
import { checkForPublish } from '../api/check-for-publish';
import { copyClusters } from '../api/copy-clusters';
import { getClusterDetails } from '../api/get-cluster-details';
import { publishClusters } from '../api/publish-clusters';
import { saveClusters } from '../api/save-clusters';
import { keyOf, toSaveBody } from '../logic/composition';
import type { ClusterEditor } from './use-cluster-editor';

function reportFailure(e: unknown) {
  if (e instanceof ApiError && e.status === 422 && e.key === 'clusterNotLocked') return showMessagePopup('Error!', CLUSTER_TEXTS.clusterNotLocked);
  if (e instanceof ApiError && e.key === 'modulesInWip') return showMessagePopup(CLUSTER_EDITOR_TEXTS.moduleInWipTitle, [CLUSTER_TEXTS.modulesInWip], 'orange');
  showMessagePopup('Error!', e instanceof Error ? e.message : CLUSTER_EDITOR_TEXTS.contactAdministrator);
}

/** The lines of the save answer's error popup (part 2 §8); empty when everything was saved. */
export function saveAnswerProblems(answer: ClusterSaveAnswer): string[] {
  const lines: string[] = [];
  const notAllowed = Object.entries(answer.errorsMap)
    .filter(([, errs]) => errs.includes(CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster))
    .map(([id]) => id);
  if (notAllowed.length) lines.push(CLUSTER_TEXTS.moduleNotAllowed(notAllowed));
  if (Object.values(answer.errorsMap).some((errs) => errs.some((e) => e !== CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster))) lines.push(CLUSTER_EDITOR_TEXTS.contactAdministrator);
  if (answer.unauthorizedList.length) lines.push(CLUSTER_TEXTS.cannotEdit(answer.unauthorizedList));
  return lines;
}

export function useClusterActions(editor: ClusterEditor) {
  const { state, compositions, changes, access, editableKeys, grants, keys, clusters } = editor;
  const [busy, setBusy] = useState<string | null>(null);

  const bodyOf = (k: string) => toSaveBody(state.base[k]!, compositions[k] ?? [], state.descriptions[k] ?? '', state.lias[k] ?? [], state.classifications[k] ?? []);
  const changedKeys = editableKeys.filter((k) => changes[k]?.any);
  const publishable = editableKeys.filter((k) => access[k]?.canPublish);
  const liaMissing = (list: string[]) => list.filter((k) => (state.lias[k] ?? []).length === 0);

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
      editor.applyServer(answer.clusterDtoList);
      editor.refreshDiscontinued();
      flash(CLUSTER_EDITOR_TEXTS.saved);
    } catch (e) {
      reportFailure(e);
    } finally {
      setBusy(null);
    }
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
      editor.load(await getClusterDetails(keys));
      void waitForJob(jobId).then(async () => {
        const fresh = await editor.reload();
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

  return {
    busy,
    save,
    publish,
    copy,
    canSave: changedKeys.length > 0 && busy === null && liaMissing(changedKeys).length === 0,
    canPublish: publishable.length > 0 && busy === null,
    canOpenCopy: canUseCopyPopup(grants) && busy === null,
    copyRights: { canSave: canSaveInCopy(grants), canSavePublish: canSavePublishInCopy(grants) },
  };
}
