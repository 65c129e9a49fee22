import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Progress, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { EXPORT_TEXTS } from '@bo/shared/exports';
import { flash } from '@/components/ui/flash';
import { ApiError } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { exportItems, type ModuleExportItem } from '../api/export-items';
import { useTemplates } from '../api/get-templates';
import { canStartExport, EXPORT_CHOICES, exportFormat, type ExportChoice } from '../logic/export-format';

export interface ExportModalProps {
  opened: boolean;
  onClose: () => void;
  type: 'module';
  items: ModuleExportItem[];
  /** Published exports the published version; Saved the saved one whatever the status. */
  status: 'Published' | 'Saved';
  /** A line under the title (what is exported, a warning about unsaved changes …). */
  note?: React.ReactNode;
}

/**
 * The export popup (part 2 §5 "Export"): choose XLS, XLS PHOTO or PDF, then a template (not for PDF),
 * then EXPORT. One item uses the plain format, several the massive one; the file is downloaded.
 */
export function ExportModal({ opened, onClose, type, items, status, note }: ExportModalProps) {
  const username = useSession((s) => s.user?.username);
  const [choice, setChoice] = useState<ExportChoice | null>(null);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const templates = useTemplates(type === 'module' ? 'modulo' : 'cluster', opened);

  useEffect(() => {
    if (!opened) return;
    setChoice(null);
    setTemplateId(null);
    setProgress(null);
    setError(null);
  }, [opened]);

  const run = async () => {
    if (!choice || !canStartExport(choice, templateId)) return;
    setBusy(true);
    setError(null);
    try {
      const fileName = await exportItems({ type, format: exportFormat(choice, items.length), templateId, status, items, userId: username }, (job) => setProgress(job.progress));
      flash(`${fileName} downloaded`);
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.message || `Request rejected with status ${e.status}` : EXPORT_TEXTS.failed);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const needsTemplate = choice !== null && choice !== 'PDF';
  return (
    <Modal opened={opened} onClose={busy ? () => undefined : onClose} title={<Text fw={700}>Export</Text>} radius="lg" centered data-testid="export-modal">
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          {items.length === 1 ? `1 ${type}` : `${items.length} ${type}s`} · {status === 'Saved' ? 'saved version' : 'published version'}
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
        {error && (
          <Alert color="red" variant="light" title="Export failed" data-testid="export-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button leftSection={<IconDownload size={16} />} onClick={() => void run()} loading={busy} disabled={!canStartExport(choice, templateId) || items.length === 0} data-testid="export-start">
            EXPORT
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
