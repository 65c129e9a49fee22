import { type MassiveEditResult, massiveEditResultSchema, type MassiveEditType } from '@bo/shared/massive-edit';
import { createElement, useCallback, useRef, useState } from 'react';
import { showAlert } from '@/components/ui/alert-store';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { showMessagePopup } from '@/components/ui/message-popup';
import { isApiError } from '@/lib/api-error';
import { waitForJob } from '@/lib/jobs';
import { PublishConfirmation } from '../components/publish-confirmation';
import type { TableSummary } from '../logic/draft-rows';
import { fieldErrorsByRow, renumberRow } from '../logic/result-lines';
import { callsFor, type MassiveEditTarget } from '../api/massive-edit-calls';

/** The pause between 100% and the Result popup (part 2 §4, §9). */
const RESULT_DELAY_MS = 1000;

export const FLOW_TEXTS = {
  confirmTitle: (toPublish: boolean) => (toPublish ? 'Save & Publish All' : 'Save All'),
  confirmMessage: (rows: number, toPublish: boolean) =>
    `${toPublish ? 'Save and publish' : 'Save'} the changes of ${rows} ${rows === 1 ? 'row' : 'rows'}?`,
  confirmDetails: 'Blank rows are not sent. Items you may not change are listed in the result.',
  jobFailed: 'The massive edit stopped before the end: what it changed before stopping is saved. Check the items before running it again.',
  rowsRefused: 'The rows marked in red were refused: correct them and save again.',
  allRefused: 'Nothing was saved: you may not change any of the items these rows name. The rows stay in the table.',
} as const;

type FlowPhase =
  | { kind: 'idle' }
  | { kind: 'progress'; toPublish: boolean; value: number }
  /** `refused`: the server refused every item and ran nothing; closing the popup keeps the tables. */
  | { kind: 'result'; result: MassiveEditResult; rowNumbers: number[]; refused?: boolean }
  | { kind: 'preview'; result: MassiveEditResult; rowNumbers: number[] };

/** The rows as sent, as one string: the page compares it with the rows the server said would all fail. */
export const sentRowsKey = (sent: TableSummary['sent']) => JSON.stringify(sent.map((s) => s.request));

/** Whether the server said no row would save anything (every row failed). */
const everyRowFails = (result: MassiveEditResult) => result.rows.length > 0 && result.rows.every((r) => r.outcome === 'failed');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Save All / Save & Publish All and Preview (part 2 §4): confirmation (CANCEL / CONFIRM) with the call
 * inside it (Save & Publish's also lists what publishing changes per item, issue 18), the progress popup
 * fed by the job polls, the Result popup about a second after 100%; a preview sends the same rows with
 * dryRun. Errors as part 2 §8: 401 logs out (the API client), 4xx an 'Error' popup one line per ';' part
 * (a 400 also marks its rows), 5xx / no answer the alert bar.
 */
export function useMassiveEditFlow({ target, type, onSaved }: { target: MassiveEditTarget; type: MassiveEditType; onSaved: () => void }) {
  const [phase, setPhase] = useState<FlowPhase>({ kind: 'idle' });
  const [serverErrors, setServerErrors] = useState<ReadonlyMap<string, string[]>>(new Map());
  const [busy, setBusy] = useState(false);
  /** The rows (sentRowsKey) the server said every one of would fail (a preview, or every item refused). */
  const [allFailKey, setAllFailKey] = useState<string | null>(null);
  const running = useRef(false);

  const fail = useCallback((error: unknown, sent: TableSummary['sent']) => {
    if (!isApiError(error)) {
      showAlert(error instanceof Error ? error.message : String(error));
      return;
    }
    if (error.status === 401) return; // the API client ended the session
    if (error.status >= 400 && error.status < 500) {
      const byRow = fieldErrorsByRow(error.fields, sent.map((s) => s.rowId));
      setServerErrors(byRow);
      const rowNumbers = sent.map((s) => s.rowNumber);
      const lines = error.message
        .split(';')
        .map((l) => renumberRow(l.trim(), rowNumbers))
        .filter(Boolean);
      showMessagePopup('Error', byRow.size ? [...lines, FLOW_TEXTS.rowsRefused] : lines);
      return;
    }
    showAlert(error.message);
  }, []);

  /** Runs one piece of work at a time: a double click, or a click before the button re-renders disabled, does nothing. */
  const once = useCallback(async (work: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);

  const save = useCallback(
    (sent: TableSummary['sent'], toPublish: boolean, { ask = true }: { ask?: boolean } = {}) =>
      once(async () => {
        const calls = callsFor(target);
        const publish = toPublish && type !== 'classification';
        const rows = sent.map((s) => s.request);
        let started: Awaited<ReturnType<typeof calls.start>> | null = null;
        const start = async () => {
          started = await calls.start(rows, publish);
        };
        try {
          if (ask) {
            const question = FLOW_TEXTS.confirmMessage(rows.length, publish);
            const yes = await confirmDialog({
              title: FLOW_TEXTS.confirmTitle(publish),
              // Save & Publish shows what publishing changes, item by item (the server's preview with toPublish).
              message: publish ? createElement(PublishConfirmation, { question, rows, rowNumbers: sent.map((s) => s.rowNumber), target }) : question,
              ...(publish ? { size: 'lg' as const } : {}),
              confirmLabel: 'CONFIRM',
              cancelLabel: 'CANCEL',
              action: start,
            });
            if (!yes) return;
          } else {
            await start();
          }
        } catch (error) {
          fail(error, sent);
          return;
        }
        const answer = started as Awaited<ReturnType<typeof calls.start>> | null;
        if (!answer) return;
        setServerErrors(new Map());
        if (answer.status === 'REFUSED') {
          // Every item refused: no job ran, nothing was written; the answer is already the result.
          setAllFailKey(sentRowsKey(sent));
          setPhase({ kind: 'result', result: answer.result, rowNumbers: sent.map((s) => s.rowNumber), refused: true });
          return;
        }
        const { jobId } = answer;
        setPhase({ kind: 'progress', toPublish: publish, value: 0 });
        let job;
        try {
          job = await waitForJob(jobId, { onProgress: (j) => setPhase({ kind: 'progress', toPublish: publish, value: Math.min(100, Math.max(0, j.progress)) }) });
        } catch (error) {
          setPhase({ kind: 'idle' });
          fail(error, sent);
          return;
        }
        if (job.status !== 'DONE') {
          setPhase({ kind: 'idle' });
          showMessagePopup('Error', job.response || FLOW_TEXTS.jobFailed);
          return;
        }
        setPhase({ kind: 'progress', toPublish: publish, value: 100 });
        await sleep(RESULT_DELAY_MS);
        const result = massiveEditResultSchema.safeParse(job.result);
        if (!result.success) {
          setPhase({ kind: 'idle' });
          showMessagePopup('Error', job.response || FLOW_TEXTS.jobFailed);
          onSaved();
          return;
        }
        setPhase({ kind: 'result', result: result.data, rowNumbers: sent.map((s) => s.rowNumber) });
      }),
    [once, target, type, fail, onSaved],
  );

  const preview = useCallback(
    (sent: TableSummary['sent']) =>
      once(async () => {
        try {
          const result = await callsFor(target).preview(
            sent.map((s) => s.request),
            false,
          );
          setServerErrors(new Map());
          setAllFailKey(everyRowFails(result) ? sentRowsKey(sent) : null);
          setPhase({ kind: 'preview', result, rowNumbers: sent.map((s) => s.rowNumber) });
        } catch (error) {
          fail(error, sent);
        }
      }),
    [once, target, fail],
  );

  /** Closing the Result popup empties the tables (part 2 §4), unless nothing ran (every item refused). */
  const closeResult = useCallback(() => {
    const saved = !(phase.kind === 'result' && phase.refused);
    setPhase({ kind: 'idle' });
    if (saved) onSaved();
  }, [onSaved, phase]);

  const closePreview = useCallback(() => setPhase({ kind: 'idle' }), []);
  const clearServerErrors = useCallback((rowId: string) => {
    setServerErrors((current) => {
      if (!current.has(rowId)) return current;
      const next = new Map(current);
      next.delete(rowId);
      return next;
    });
  }, []);

  return { phase, busy, serverErrors, allFailKey, save, preview, closeResult, closePreview, clearServerErrors };
}
