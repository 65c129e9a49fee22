/** Save, Save & Publish, save-all and publish-all of the module page, with the spec's questions. */
import { useCallback, useMemo, type ReactNode } from 'react';
import type { ModulePublishDiffRequest } from '@bo/shared/item-versions';
import { moduleKeyString } from '@bo/shared/item-keys';
import { PUBLISH_TEXTS, type ModuleCheckForPublish, type ModuleCheckForPublishAnswer, type ModuleKey, type PublishBlockReason } from '@bo/shared/modules';
import { publishQuestion, WORKING_AREA_TEXTS } from '@bo/shared/working-area';
import { notPublishedLines, showPublishBlocked } from '@/components/editor/publish-outcome';
import { reportEditorFailure, withLostLockHint } from '@/components/editor/report-failure';
import { useSingleFlight } from '@/components/editor/single-flight';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { BULK_RESULT_TEXTS, publishedSummary } from '../logic/bulk-results';
import { showMessagePopup, splitMessages } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { formatMonthId } from '@/lib/format';
import { waitForJob } from '@/lib/jobs';
import { checkModulesForPublish, publishModuleList } from '@/lib/module-calls';
import { publishModule } from '../api/publish-module';
import { saveModule } from '../api/save-module';
import { saveModuleList } from '../api/save-module-list';
import { countCautionMessage } from '../components/count-caution';
import { parseModuleKey, type ModuleKeyString } from '../logic/module-key';
import { countsDifferFromPrevious, hasChanges, isDescriptionEdited, isEdited, toSaveBody, type EditorModule } from './editor-reducer';
import type { ModuleEditor } from './use-module-editor';

/** A failed call: its message, and for a lost lock what that means for the changes on screen. */
const report = (error: unknown) => reportEditorFailure(error, { title: 'Error', fallback: 'An error occurred!' });

/** A reason of the checks as the page says it: a SKU is named by its tile (model, colour, size) and its UPC. */
function reasonLine(m: EditorModule | undefined, r: PublishBlockReason): string {
  const p = r.upc ? m?.products.find((x) => x.upc === r.upc) : undefined;
  return p ? `${r.message} (${p.model} ${p.color} ${p.size})` : r.message;
}

/**
 * The checks before publishing (docs/LIFECYCLE.md "Publish") on what the publish call would send: true
 * when nothing blocks; otherwise the blocking list is shown and nothing is sent.
 */
async function passesChecks(mods: EditorModule[], bodyOf: (m: EditorModule) => ModuleKey & Pick<ModuleCheckForPublish[number], 'productDtoList'>): Promise<boolean> {
  let answer: ModuleCheckForPublishAnswer;
  try {
    answer = await checkModulesForPublish(
      mods.map((m) => {
        const body = bodyOf(m);
        return { moduleName: body.moduleName, monthId: body.monthId, ...(body.productDtoList ? { productDtoList: body.productDtoList.map((l) => ({ upc: l.upc, moduleCompositionStatus: l.moduleCompositionStatus })) } : {}) };
      }),
    );
  } catch (error) {
    report(error);
    return false;
  }
  if (answer.blocking.length === 0) return true;
  const byKey = new Map(mods.map((m) => [moduleKeyString(m.dto), m]));
  await showPublishBlocked(
    answer.blocking.map((b) => ({
      name: `${b.moduleLabel} (${b.moduleName}, ${formatMonthId(b.monthId)})`,
      lines: b.reasons.map((r) => reasonLine(byKey.get(moduleKeyString(b)), r)),
    })),
  );
  return false;
}

/** A refusal of the publish call itself (the checks failed meanwhile): "Not published" with the reasons. */
function reportPublishFailure(error: unknown) {
  if (error instanceof ApiError && error.key === 'publishBlocked') return showMessagePopup(PUBLISH_TEXTS.notPublishedTitle, splitMessages(error.message));
  report(error);
}

async function askDescription(mods: EditorModule[]): Promise<boolean> {
  if (!mods.some(isDescriptionEdited)) return false;
  return confirmDialog({ title: 'Module description', message: WORKING_AREA_TEXTS.confirmDescription });
}

/**
 * The counts caution before a save. With `action` (the save itself), Proceed runs it with its button
 * loading until the save answers, so a second click cannot send it twice; with no caution to ask, the
 * action runs at once. Answers false when the user cancelled.
 */
async function cautionCounts(mods: EditorModule[], action?: () => Promise<void>): Promise<boolean> {
  const differ = mods.filter((m) => isEdited(m) && countsDifferFromPrevious(m));
  if (differ.length === 0) {
    await action?.();
    return true;
  }
  return confirmDialog({
    title: 'Caution',
    message: countCautionMessage(differ, differ.length === 1 && mods.length === 1),
    confirmLabel: 'Proceed',
    cancelLabel: 'Cancel',
    action,
  });
}

/** The items of a publish confirmation's "what changes": the page's unsaved composition when the publish sends one. */
function diffItems(mods: EditorModule[], bodyOf: (m: EditorModule) => ModuleKey & Pick<ModuleCheckForPublish[number], 'productDtoList'>): ModulePublishDiffRequest {
  return mods.map((m) => {
    const body = bodyOf(m);
    const lines = (body.productDtoList ?? null) as { upc: string; mustHave: boolean; minValue: number; moduleCompositionStatus: EditorModule['products'][number]['moduleCompositionStatus'] }[] | null;
    return { moduleName: body.moduleName, monthId: body.monthId, ...(lines ? { productDtoList: lines.map((l) => ({ upc: l.upc, mustHave: l.mustHave, minValue: l.minValue, moduleCompositionStatus: l.moduleCompositionStatus })) } : {}) };
  });
}

/** The publish confirmation's body: the spec's question and what publishing changes (the item-versions feature draws it; the app route hands it in). */
export type PublishConfirmation = (props: { question: string; items: ModulePublishDiffRequest; labels: Record<string, string>; skus: Record<string, string> }) => ReactNode;

export function useModuleActions(editor: ModuleEditor, publishConfirmation?: PublishConfirmation) {
  const { stateRef, reload, setModuleBusy, dispatch } = editor;
  /** The question of a publish, with "what changes" when the route gave the view. */
  const publishMessage = useCallback(
    (mods: EditorModule[], bodyOf: Parameters<typeof diffItems>[1]) =>
      publishConfirmation
        ? publishConfirmation({
            question: publishQuestion(),
            items: diffItems(mods, bodyOf),
            labels: Object.fromEntries(mods.map((m) => [m.dto.moduleName, m.dto.moduleLabel])),
            skus: Object.fromEntries(mods.flatMap((m) => m.products.map((p) => [p.upc, `${p.model} ${p.color} ${p.size}`]))),
          })
        : publishQuestion(),
    [publishConfirmation],
  );

  const save = useCallback(
    async (key: ModuleKeyString) => {
      const m = stateRef.current.modules[key];
      if (!m || !hasChanges(m)) return;
      const withDescription = await askDescription([m]);
      if (!isEdited(m) && !withDescription) return;
      await cautionCounts([m], async () => {
        setModuleBusy(key, true);
        try {
          const onlyDescription = withDescription && !isEdited(m);
          // A version restored from the History panel: this save is recorded as its revert (once: the answer clears it).
          const dto = await saveModule(toSaveBody(m, withDescription), onlyDescription, onlyDescription ? undefined : m.revertOf);
          dispatch({ type: 'refreshed', dto });
          flash(WORKING_AREA_TEXTS.saved);
        } catch (error) {
          report(error);
        } finally {
          setModuleBusy(key, false);
        }
      });
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
      // A rejection is an outcome: the page says plainly what was not published, and why.
      const rejected = dtos.filter((d) => d.status === 'WIP' && d.rpasErrors);
      // Counted first (issue 34 item 2): how many were published and how many not.
      const summary = publishedSummary(dtos.map((d) => ({ status: d.status, rejected: !!d.rpasErrors })));
      if (rejected.length) showMessagePopup(PUBLISH_TEXTS.notPublishedTitle, [summary, ...rejected.flatMap((d) => notPublishedLines(`${d.moduleLabel} (${d.moduleName})`, d.rpasErrors))]);
      const submitted = dtos.filter((d) => d.status === 'SUBMITTED');
      if (submitted.length) flash(`${keys.length > 1 ? `${summary}. ` : ''}${submitted.map((d) => `${d.moduleLabel} (${d.moduleName})`).join(', ')}: SUBMITTED`);
    },
    [reload, setModuleBusy],
  );

  const publish = useCallback(
    async (key: ModuleKeyString) => {
      const m = stateRef.current.modules[key];
      if (!m) return;
      const withDescription = await askDescription([m]);
      if (!(await cautionCounts([m]))) return;
      const bodyOf = (x: EditorModule) => (isEdited(x) || withDescription ? toSaveBody(x, withDescription) : { moduleName: x.dto.moduleName, monthId: x.dto.monthId });
      setModuleBusy(key, true);
      const clear = await passesChecks([m], bodyOf);
      setModuleBusy(key, false);
      if (!clear) return;
      if (!(await confirmDialog({ title: 'Save & Publish', message: publishMessage([m], bodyOf) }))) return;
      setModuleBusy(key, true);
      let jobId: number | undefined;
      try {
        const started = await publishModule(bodyOf(m));
        jobId = started.jobId;
        flash(started.message, 'info');
      } catch (error) {
        reportPublishFailure(error);
        setModuleBusy(key, false);
        return;
      }
      setModuleBusy(key, false);
      await follow(jobId, [key]);
    },
    [stateRef, setModuleBusy, follow, publishMessage],
  );

  const saveAll = useCallback(
    async (keys: ModuleKeyString[]) => {
      const mods = keys.map((k) => stateRef.current.modules[k]).filter((m): m is EditorModule => !!m && hasChanges(m));
      if (mods.length === 0) return;
      const withDescription = await askDescription(mods);
      const toSave = mods.filter((m) => isEdited(m) || withDescription);
      if (toSave.length === 0) return;
      const touched = toSave.map((m) => moduleKeyString(m.dto));
      await cautionCounts(toSave, async () => {
        for (const k of touched) setModuleBusy(k, true);
        try {
          // Restored versions go one by one through the single save, which records the revert (the list save has no revertOf).
          const restored = toSave.filter((m) => m.revertOf !== undefined && isEdited(m));
          const others = toSave.filter((m) => !restored.includes(m));
          const messages = others.length ? await saveModuleList(others.map((m) => toSaveBody(m, withDescription))) : [];
          for (const m of restored) {
            const dto = await saveModule(toSaveBody(m, withDescription), false, m.revertOf);
            dispatch({ type: 'refreshed', dto });
          }
          // saveList is all or nothing: a refusal means none of these was saved (the restored ones went before).
          if (messages.length) showMessagePopup('Error', [BULK_RESULT_TEXTS.nothingSaved(messages.length, others.length), ...withLostLockHint(messages)]);
          else {
            await reload(touched.map(parseModuleKey));
            flash(WORKING_AREA_TEXTS.saved);
          }
        } catch (error) {
          report(error);
        } finally {
          for (const k of touched) setModuleBusy(k, false);
        }
      });
    },
    [stateRef, setModuleBusy, reload, dispatch],
  );

  const publishAll = useCallback(
    async (keys: ModuleKeyString[]) => {
      const mods = keys.map((k) => stateRef.current.modules[k]).filter((m): m is EditorModule => !!m);
      if (mods.length === 0) return;
      const withDescription = await askDescription(mods);
      if (!(await cautionCounts(mods))) return;
      const bodyOf = (m: EditorModule) =>
        isEdited(m) || (withDescription && isDescriptionEdited(m)) ? toSaveBody(m, withDescription) : { moduleName: m.dto.moduleName, monthId: m.dto.monthId };
      if (!(await passesChecks(mods, bodyOf))) return;
      if (!(await confirmDialog({ title: 'Publish all', message: publishMessage(mods, bodyOf) }))) return;
      try {
        const answer = await publishModuleList(mods.map(bodyOf));
        if (answer.errors?.length) {
          const lines = answer.errors.flatMap(splitMessages);
          return showMessagePopup('Error', [BULK_RESULT_TEXTS.nothingPublished(lines.length, mods.length), ...withLostLockHint(lines)]);
        }
        if (answer.message) flash(answer.message, 'info');
        await follow(answer.jobId, keys);
      } catch (error) {
        report(error);
      }
    },
    [stateRef, follow, publishMessage],
  );

  // One run at a time per module (and one save-all / publish-all): a double click sends one request.
  const flight = useSingleFlight();
  return useMemo(
    () => ({
      save: (key: ModuleKeyString) => flight(key, () => save(key)),
      publish: (key: ModuleKeyString) => flight(key, () => publish(key)),
      saveAll: (keys: ModuleKeyString[]) => flight(ALL, () => saveAll(keys)),
      publishAll: (keys: ModuleKeyString[]) => flight(ALL, () => publishAll(keys)),
    }),
    [flight, save, publish, saveAll, publishAll],
  );
}

/** The single-flight key of the page-wide actions. */
const ALL = '*all*';
