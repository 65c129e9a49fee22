import { Anchor, Badge, Button, Group, Radio, Stack, Text } from '@mantine/core';
import { MASSIVE_EDIT_LIMITS, MASSIVE_EDIT_TEXTS, type MassiveEditType } from '@bo/shared/massive-edit';
import { canMassivePublish, canMassiveSave } from '@bo/shared/permissions';
import { IconChevronLeft, IconEye, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCallback, useEffect } from 'react';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { flash } from '@/components/ui/flash';
import { NoAccessPage } from '@/components/ui/no-access-page';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import type { MassiveEditTarget } from '../api/massive-edit-calls';
import { FLOW_TEXTS, sentRowsKey, useMassiveEditFlow } from '../hooks/use-massive-edit-flow';
import { useRowsTable } from '../hooks/use-rows-table';
import { MASSIVE_EDIT_TYPES, TYPE_LABELS } from '../logic/fields';
import type { RowsState } from '../logic/rows-reducer';
import { MassiveEditTable } from './massive-edit-table';
import { PreviewModal } from './preview-modal';
import { ProgressModal } from './progress-modal';
import { ResultModal } from './result-modal';

export interface MassiveEditPageProps {
  title: string;
  description: React.ReactNode;
  /** The page's three types ('page'), or the selected modules of home (admins, module rows only). */
  target: 'page' | 'selected';
  initial: () => RowsState;
  /** Keep the unsent rows in the tab's storage (the Massive Edit page; not the selected modules). */
  persist: boolean;
}

const BUTTON_HINTS = {
  nothing: 'Fill in at least one row',
  invalid: 'Correct the rows marked in red first',
  untouched: 'Fill in what to change in the rows first: as they are, every row would be refused',
  allFail: 'Every row would fail (the preview says why): change the rows first',
  publishGrant: 'Publishing needs a submit permission',
  saveGrant: 'Saving needs an edit permission',
  noAccess: 'Massive Edit needs an edit or a submit permission.',
  noAccessDetails: 'A viewer can search and open modules and clusters from home, but not change them.',
} as const;

/**
 * The Massive Edit page (part 2 §2, §4): the assortment type, its editable table, Preview, Save All and
 * Save & Publish All with the confirmation, progress and Result popups.
 */
export function MassiveEditPage({ title, description, target, initial, persist }: MassiveEditPageProps) {
  const table = useRowsTable({ initial, persist });
  const { state, dispatch, summary, reset } = table;
  const type = state.type;
  const grants = useSession((s) => s.grants ?? []);
  const mayPublish = canMassivePublish(grants);
  const maySave = canMassiveSave(grants);
  const callTarget: MassiveEditTarget = target === 'selected' ? 'selected' : type;
  const onSaved = useCallback(() => reset(type), [reset, type]);
  const flow = useMassiveEditFlow({ target: callTarget, type, onSaved });

  const lastPaste = state.lastPaste;
  useEffect(() => {
    if (!lastPaste) return;
    if (lastPaste.droppedRows) flash(`${lastPaste.droppedRows} pasted rows were left out: a table takes at most ${MASSIVE_EDIT_LIMITS.rows} rows.`, 'warning');
    if (lastPaste.droppedColumns) flash('Some pasted columns were beyond the last column of the table and were left out.', 'warning');
  }, [lastPaste]);

  const switchType = async (next: MassiveEditType) => {
    if (next === type) return;
    if (summary.sent.length > 0) {
      const yes = await confirmDialog({
        title: MASSIVE_EDIT_TEXTS.switchTitle,
        message: (
          <Stack gap={6} data-testid="switch-warning">
            <Text fz="sm">{MASSIVE_EDIT_TEXTS.switchWarning}</Text>
            <Text fz="sm">{MASSIVE_EDIT_TEXTS.switchQuestion}</Text>
          </Stack>
        ),
        confirmLabel: 'CONFIRM',
        cancelLabel: 'CANCEL',
      });
      if (!yes) return;
    }
    reset(next);
  };

  // The server refuses a save or preview without an edit grant and a publish without a submit grant: the
  // buttons say so instead of being offered (a viewer, who has neither, gets the no-access page below).
  // Rows known to fail disable saving (issue 34 item 7): invalid on the row rules (also rows not shown red yet:
  // a press reveals them), or every row failed in the server's preview of these very rows.
  const rowsHint =
    summary.sent.length === 0 ? BUTTON_HINTS.nothing : summary.invalidRows > 0 ? (summary.hiddenInvalidRows === summary.invalidRows ? BUTTON_HINTS.untouched : BUTTON_HINTS.invalid) : null;
  const allFail = flow.allFailKey !== null && flow.allFailKey === sentRowsKey(summary.sent);
  const failHint = rowsHint ?? (allFail ? BUTTON_HINTS.allFail : null);
  const previewHint = maySave ? rowsHint : BUTTON_HINTS.saveGrant;
  const saveHint = maySave ? failHint : BUTTON_HINTS.saveGrant;
  const publishHint = mayPublish ? failHint : BUTTON_HINTS.publishGrant;
  const publishable = type !== 'classification';
  const busy = flow.busy;

  // A press on a button the rows disable shows every row's errors (prefilled rows included).
  const hinted = (hint: string | null, button: React.ReactElement<Record<string, unknown>>) => (
    <span onClickCapture={hint ? () => dispatch({ type: 'touchAll' }) : undefined} style={{ display: 'inline-block' }}>
      <DisabledReason reason={hint}>{button}</DisabledReason>
    </span>
  );

  if (!maySave && !mayPublish) return <NoAccessPage title={title} message={BUTTON_HINTS.noAccess} details={BUTTON_HINTS.noAccessDetails} testId="massive-edit-no-access" />;

  return (
    <Stack gap="md" w="100%">
      {/* Back to home, as the editors have it (issue 34 item 7). */}
      <Anchor component={Link} to={paths.home.path} fz="sm" style={{ alignSelf: 'flex-start' }} data-testid="massive-edit-home">
        <Group gap={4} wrap="nowrap">
          <IconChevronLeft size={16} aria-hidden /> Home
        </Group>
      </Anchor>
      <PageHeader title={title} description={description} />
      <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
        {target === 'page' ? (
          <Radio.Group label={MASSIVE_EDIT_TEXTS.chooseType} value={type} onChange={(v) => void switchType(v as MassiveEditType)} data-testid="type-radio">
            <Group gap="lg" mt={6}>
              {MASSIVE_EDIT_TYPES.map((t) => (
                <Radio key={t} value={t} label={TYPE_LABELS[t]} disabled={busy} />
              ))}
            </Group>
          </Radio.Group>
        ) : (
          <Text fz="sm" c="dimmed">
            Module rows of the modules selected on home
          </Text>
        )}
        <Group gap="sm">
          {hinted(
            previewHint,
            <Button variant="default" leftSection={<IconEye size={16} />} disabled={busy} onClick={() => void flow.preview(summary.sent)} data-testid="preview-button">
              Preview
            </Button>,
          )}
          {hinted(
            saveHint,
            <Button disabled={busy} onClick={() => void flow.save(summary.sent, false)} data-testid="save-all">
              {MASSIVE_EDIT_TEXTS.saveAll}
            </Button>,
          )}
          {publishable &&
            hinted(
              publishHint,
              <Button variant="light" disabled={busy} onClick={() => void flow.save(summary.sent, true)} data-testid="save-publish-all">
                {MASSIVE_EDIT_TEXTS.savePublishAll}
              </Button>,
            )}
        </Group>
      </Group>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => dispatch({ type: 'add' })} disabled={busy} data-testid="add-row">
            Add row
          </Button>
          <Text fz="xs" c="dimmed">
            Paste cells copied from a spreadsheet into any cell: they fill the table from there. List cells take one value per line.
          </Text>
        </Group>
        <Group gap={6} data-testid="row-counts">
          <Badge variant="light" color="gray">
            {state.rows.length} {state.rows.length === 1 ? 'row' : 'rows'}
          </Badge>
          <Badge variant="light" color="blue">
            {summary.sent.length} to send
          </Badge>
          {summary.invalidRows - summary.hiddenInvalidRows > 0 && (
            <Badge variant="light" color="red" data-testid="invalid-count">
              {summary.invalidRows - summary.hiddenInvalidRows} with errors
            </Badge>
          )}
        </Group>
      </Group>
      <MassiveEditTable
        type={type}
        rows={state.rows}
        analyse={table.analyse}
        serverErrors={flow.serverErrors}
        monthOptions={table.monthOptions}
        dispatch={dispatch}
        onRowEdited={flow.clearServerErrors}
        disabled={busy}
      />
      <ProgressModal opened={flow.phase.kind === 'progress'} value={flow.phase.kind === 'progress' ? flow.phase.value : 0} toPublish={flow.phase.kind === 'progress' && flow.phase.toPublish} />
      <ResultModal
        result={flow.phase.kind === 'result' ? flow.phase.result : null}
        rowNumbers={flow.phase.kind === 'result' ? flow.phase.rowNumbers : []}
        note={flow.phase.kind === 'result' && flow.phase.refused ? FLOW_TEXTS.allRefused : undefined}
        onClose={flow.closeResult}
      />
      <PreviewModal
        preview={flow.phase.kind === 'preview' ? flow.phase : null}
        onClose={flow.closePreview}
        saveReason={saveHint}
        onSave={() => {
          flow.closePreview();
          void flow.save(summary.sent, false, { ask: false });
        }}
        onSavePublish={
          publishable && !publishHint
            ? () => {
                flow.closePreview();
                // Publishing from the preview still shows what publishing changes (the confirmation's per-item summary).
                void flow.save(summary.sent, true);
              }
            : undefined
        }
      />
    </Stack>
  );
}
