import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, Modal, Progress, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconDownload, IconHourglass } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EXPORT_TEMPLATE_TYPES, EXPORT_TEXTS, isMassiveExport } from '@bo/shared/exports';
import { flash } from '@/components/ui/flash';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { exportItems, type ExportRequest, type ExportTarget } from '../api/export-items';
import { useTemplates } from '../api/get-templates';
import { canStartExport, EXPORT_CHOICES, EXPORT_POPUP_TEXTS, exportFormat, type ExportChoice } from '../logic/export-format';

export type ExportModalProps = ExportTarget & {
  opened: boolean;
  onClose: () => void;
  /** Published exports the published version; Saved the saved one whatever the status. */
  status: 'Published' | 'Saved';
  /** A line under the title (what is exported, a warning about unsaved changes …). */
  note?: React.ReactNode;
  /** A file was exported and downloaded. */
  onExported?: () => void;
};

/**
 * The export popup (part 2 §5 "Export"): choose XLS, XLS PHOTO or PDF, then a template (not for PDF),
 * then EXPORT. One item uses the plain format, several the massive one; the file is downloaded. When the
 * server answers 202 (the file takes longer than it waits) the popup says where the file will appear and
 * may be closed; left open, it follows the job and downloads the file when it is ready.
 */
export function ExportModal({ opened, onClose, status, note, onExported, ...target }: ExportModalProps) {
  const { type, items } = target;
  const username = useSession((s) => s.user?.username);
  const [choice, setChoice] = useState<ExportChoice | null>(null);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const left = useRef(false);
  const templates = useTemplates(EXPORT_TEMPLATE_TYPES[type], opened);

  useEffect(() => {
    if (!opened) return;
    left.current = false;
    setChoice(null);
    setTemplateId(null);
    setProgress(null);
    setStarted(false);
    setError(null);
  }, [opened]);

  const close = () => {
    left.current = true;
    onClose();
  };

  const run = async () => {
    if (!choice || !canStartExport(choice, templateId)) return;
    setBusy(true);
    setError(null);
    try {
      const request = { ...target, format: exportFormat(choice, items.length), templateId, status, userId: username } as ExportRequest;
      const outcome = await exportItems(request, { onProgress: (job) => setProgress(job.progress), onStarted: () => setStarted(true), cancelled: () => left.current });
      if (!outcome.saved) return;
      flash(`${outcome.fileName} downloaded`);
      onExported?.();
      close();
    } catch (e) {
      if (left.current) return;
      setError(e instanceof ApiError ? e.message || `Request rejected with status ${e.status}` : EXPORT_TEXTS.failed);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const needsTemplate = choice !== null && choice !== 'PDF';
  const massive = choice !== null && isMassiveExport(exportFormat(choice, items.length));
  // While the first answer is awaited the popup stays (closing would lose the download); after a 202 it may go.
  const closable = !busy || started;
  return (
    <Modal opened={opened} onClose={closable ? close : () => undefined} title={<Text fw={700}>Export</Text>} radius="lg" centered data-testid="export-modal">
      <Stack gap="sm">
        <Text fz="sm" c="dimmed" data-testid="export-summary">
          {items.length === 1 ? `1 ${type}` : `${items.length} ${type}s`} · {status === 'Saved' ? 'saved version' : 'published version'}
          {massive ? ' · one massive file' : ''}
        </Text>
        {note}
        <SegmentedControl
          fullWidth
          data={[...EXPORT_CHOICES]}
          value={choice ?? ''}
          onChange={(v) => {
            setChoice(v as ExportChoice);
            setError(null);
          }}
          disabled={busy}
          aria-label="Export format"
          data-testid="export-format"
        />
        {needsTemplate && (
          <Select
            label="Template"
            placeholder={templates.isLoading ? 'Loading templates…' : 'Choose a template'}
            data={(templates.data ?? []).map((t) => ({ value: String(t.templateId), label: t.templateLabel }))}
            value={templateId === null ? null : String(templateId)}
            onChange={(v) => setTemplateId(v === null ? null : Number(v))}
            disabled={busy}
            allowDeselect={false}
            data-testid="export-template"
          />
        )}
        {busy && progress !== null && <Progress value={progress} animated aria-label="Export progress" />}
        {started && (
          <Alert color="blue" variant="light" icon={<IconHourglass size={18} />} title={EXPORT_POPUP_TEXTS.startedTitle} data-testid="export-started">
            {choice === 'PDF' ? EXPORT_POPUP_TEXTS.startedPdf : EXPORT_POPUP_TEXTS.started}{' '}
            {choice === 'PDF' && (
              <>
                <Anchor component={Link} to={paths.pdfArea.path} fz="sm">
                  PDF FILES
                </Anchor>
                {' · '}
              </>
            )}
            <Anchor component={Link} to={paths.history.path} fz="sm">
              Export history
            </Anchor>
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" title="Export failed" data-testid="export-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={close} disabled={!closable}>
            {started ? 'Close' : 'Cancel'}
          </Button>
          <Button leftSection={<IconDownload size={16} />} onClick={() => void run()} loading={busy} disabled={!canStartExport(choice, templateId) || items.length === 0} data-testid="export-start">
            EXPORT
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
