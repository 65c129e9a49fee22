/** Save, Save & Publish, save-all and publish-all of the module page, with the spec's questions. */
import { useCallback } from 'react';
import { publishQuestion, WORKING_AREA_TEXTS } from '@bo/shared/working-area';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup, splitMessages } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { waitForJob } from '@/lib/jobs';
import { publishModule } from '../api/publish-module';
import { publishModuleList } from '../api/publish-module-list';
import { saveModule } from '../api/save-module';
import { saveModuleList } from '../api/save-module-list';
import { parseModuleKey, type ModuleKeyString } from '../logic/module-key';
import { countsDifferFromPrevious, hasChanges, isDescriptionEdited, isEdited, toSaveBody, type EditorModule } from './editor-reducer';
import type { ModuleEditor } from './use-module-editor';

const failure = (error: unknown) => (error instanceof ApiError ? error.message : 'An error occurred!');

async function askDescription(mods: EditorModule[]): Promise<boolean> {
  if (!mods.some(isDescriptionEdited)) return false;
  return confirmDialog({ title: 'Module description', message: WORKING_AREA_TEXTS.confirmDescription });
}

async function cautionCounts(mods: EditorModule[]): Promise<boolean> {
  const differ = mods.filter((m) => isEdited(m) && countsDifferFromPrevious(m));
  if (differ.length === 0) return true;
  return confirmDialog({
    title: 'Caution',
    message: differ.length === 1 && mods.length === 1 ? WORKING_AREA_TEXTS.countCaution : WORKING_AREA_TEXTS.countCautionPlural,
    confirmLabel: 'Proceed',
    cancelLabel: 'Cancel',
  });
}

export function useModuleActions(editor: ModuleEditor) {
  const { stateRef, reload, setModuleBusy, dispatch } = editor;

  const save = useCallback(
    async (key: ModuleKeyString) => {
      const m = stateRef.current.modules[key];
      if (!m || !hasChanges(m)) return;
      const withDescription = await askDescription([m]);
      if (!isEdited(m) && !withDescription) return;
      if (!(await cautionCounts([m]))) return;
      setModuleBusy(key, true);
      try {
        const onlyDescription = withDescription && !isEdited(m);
        const dto = await saveModule(toSaveBody(m, withDescription), onlyDescription);
        dispatch({ type: 'refreshed', dto: { ...dto, specialKind: m.dto.specialKind } });
        flash(WORKING_AREA_TEXTS.saved);
      } catch (error) {
        showMessagePopup('Error', failure(error));
      } finally {
        setModuleBusy(key, false);
      }
    },
    [stateRef, setModuleBusy, dispatch],
  );

  /** Follows a publish job, then shows the module's new state (SUBMITTED, or WIP with the planning system's errors). */
  const follow = useCallback(
    async (jobId: number | undefined, keys: ModuleKeyString[]) => {
      const refs = keys.map(parseModuleKey);
      await reload(refs).catch(() => undefined);
      if (jobId === undefined) return;
      for (const k of keys) setModuleBusy(k, true);
      try {
        await waitForJob(jobId);
      } catch {
        // the reload below shows whatever state the modules reached
      } finally {
        for (const k of keys) setModuleBusy(k, false);
      }
      const dtos = await reload(refs).catch(() => []);
      const rejected = dtos.filter((d) => d.status === 'WIP' && d.rpasErrors);
      for (const d of rejected) showMessagePopup(`Warning: ${d.moduleLabel}`, d.rpasErrors ?? '', 'orange');
      const submitted = dtos.filter((d) => d.status === 'SUBMITTED');
      if (submitted.length) flash(`${submitted.map((d) => d.moduleName).join(', ')}: SUBMITTED`);
    },
    [reload, setModuleBusy],
  );

  const publish = useCallback(
    async (key: ModuleKeyString) => {
      const m = stateRef.current.modules[key];
      if (!m) return;
      const withDescription = await askDescription([m]);
      if (!(await cautionCounts([m]))) return;
      if (!(await confirmDialog({ title: 'Save & Publish', message: publishQuestion() }))) return;
      setModuleBusy(key, true);
      let jobId: number | undefined;
      try {
        const body = isEdited(m) || withDescription ? toSaveBody(m, withDescription) : { moduleName: m.dto.moduleName, monthId: m.dto.monthId };
        const started = await publishModule(body);
        jobId = started.jobId;
        flash(started.message, 'info');
      } catch (error) {
        showMessagePopup('Error', failure(error));
        setModuleBusy(key, false);
        return;
      }
      setModuleBusy(key, false);
      await follow(jobId, [key]);
    },
    [stateRef, setModuleBusy, follow],
  );

  const saveAll = useCallback(
    async (keys: ModuleKeyString[]) => {
      const mods = keys.map((k) => stateRef.current.modules[k]).filter((m): m is EditorModule => !!m && hasChanges(m));
      if (mods.length === 0) return;
      const withDescription = await askDescription(mods);
      const toSave = mods.filter((m) => isEdited(m) || withDescription);
      if (toSave.length === 0 || !(await cautionCounts(toSave))) return;
      const touched = toSave.map((m) => `${m.dto.moduleName}|${m.dto.monthId}`);
      for (const k of touched) setModuleBusy(k, true);
      try {
        const messages = await saveModuleList(toSave.map((m) => toSaveBody(m, withDescription)));
        if (messages.length) showMessagePopup('Error', messages);
        else {
          await reload(touched.map(parseModuleKey));
          flash(WORKING_AREA_TEXTS.saved);
        }
      } catch (error) {
        showMessagePopup('Error', failure(error));
      } finally {
        for (const k of touched) setModuleBusy(k, false);
      }
    },
    [stateRef, setModuleBusy, reload],
  );

  const publishAll = useCallback(
    async (keys: ModuleKeyString[]) => {
      const mods = keys.map((k) => stateRef.current.modules[k]).filter((m): m is EditorModule => !!m);
      if (mods.length === 0) return;
      const withDescription = await askDescription(mods);
      if (!(await cautionCounts(mods))) return;
      if (!(await confirmDialog({ title: 'Publish all', message: publishQuestion() }))) return;
      try {
        const answer = await publishModuleList(
          mods.map((m) => (isEdited(m) || (withDescription && isDescriptionEdited(m)) ? toSaveBody(m, withDescription) : { moduleName: m.dto.moduleName, monthId: m.dto.monthId })),
        );
        if (answer.errors?.length) return showMessagePopup('Error', answer.errors.flatMap(splitMessages));
        if (answer.message) flash(answer.message, 'info');
        await follow(answer.jobId, keys);
      } catch (error) {
        showMessagePopup('Error', failure(error));
      }
    },
    [stateRef, follow],
  );

  return { save, publish, saveAll, publishAll };
}
