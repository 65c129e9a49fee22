import { Alert, Badge, Button, Checkbox, Group, Loader, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { formatMonthId } from '@bo/shared/months';
import { type ImportLine, type ImportOutcome, overwriteKey, UPLOAD_PREVIEW_TTL_MINUTES, UPLOAD_TEXTS, UPLOAD_TYPE_LABELS } from '@bo/shared/uploads';
import { IconAlertTriangle, IconEye } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { useApplyUpload, useCancelUpload, useImportPreview } from '../api/import-preview';
import { uploadFailureLines } from '../logic/upload-file';

/** The colour of each outcome's dot (the text stays dark: WCAG AA contrast). */
const OUTCOME_COLORS: Record<ImportOutcome, string> = { created: 'teal', saved: 'blue', unchanged: 'gray', failed: 'red' };

/** What a line's Detail column says: the changes, or why it is refused. */
function detailOf(line: ImportLine): string {
  if (line.outcome === 'failed') return line.reason ?? '';
  if (line.outcome === 'unchanged') return '';
  return line.changes.join(', ');
}

export interface ImportPreviewPanelProps {
  uploadId: number;
  /** Apply started the import, Cancel dropped it, or the preview failed and was closed: the page shows its areas again. */
  onDone: () => void;
}

/**
 * The preview of an Import Module / Import Cluster upload (docs/IMPORT-PREVIEW.md): the counts, then one
 * table row per item-month (name, month, outcome, detail), an Overwrite checkbox on the items the
 * stale-version guard refuses, and Apply / Cancel. Nothing is written until Apply; the server checks
 * everything again then. Focus moves to the panel's heading when it opens and when the preview arrives.
 */
export function ImportPreviewPanel({ uploadId, onDone }: ImportPreviewPanelProps) {
  const query = useImportPreview(uploadId);
  const apply = useApplyUpload();
  const cancel = useCancelUpload();
  const [overwrite, setOverwrite] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  const upload = query.data?.upload;
  const preview = query.data?.preview ?? null;
  const status = upload?.status;

  useEffect(() => {
    heading.current?.focus();
  }, [status]);

  const busy = apply.isPending || cancel.isPending;

  const onApply = async () => {
    if (!upload || busy) return;
    try {
      await apply.mutateAsync({ uploadId, overwrite: [...overwrite] });
      flash(UPLOAD_TEXTS.previewApplied(upload.fileName));
      onDone();
    } catch (error) {
      showMessagePopup('Error', uploadFailureLines(error));
    }
  };

  const onCancel = async () => {
    if (busy) return;
    try {
      await cancel.mutateAsync(uploadId);
      if (upload) flash(UPLOAD_TEXTS.previewCancelled(upload.fileName), 'info');
      onDone();
    } catch (error) {
      showMessagePopup('Error', uploadFailureLines(error));
    }
  };

  const toggle = (key: string, on: boolean) =>
    setOverwrite((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  const over = query.isError || status === 'ERROR' || status === 'EXPIRED';
  const waiting = status === 'PREVIEW';

  return (
    <Paper withBorder radius="lg" p="lg" data-testid="import-preview" aria-labelledby="import-preview-title" component="section">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="center">
          <IconEye size={20} aria-hidden />
          <Title order={3} fz="lg" fw={650} id="import-preview-title" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
            {UPLOAD_TEXTS.previewTitle(upload ? UPLOAD_TYPE_LABELS[upload.type] : '')}
            {upload && (
              <>
                {' · '}
                <bdi>{upload.fileName}</bdi>
              </>
            )}
          </Title>
        </Group>

        {(query.isPending || status === 'WIP') && (
          <Group gap="sm" role="status" aria-live="polite" data-testid="import-preview-computing">
            <Loader size="sm" />
            <Text fz="sm">{UPLOAD_TEXTS.previewComputing}</Text>
          </Group>
        )}

        {over && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" data-testid="import-preview-failed">
            <Text fz="sm">{status === 'EXPIRED' ? UPLOAD_TEXTS.previewExpired(UPLOAD_PREVIEW_TTL_MINUTES) : query.isError ? uploadFailureLines(query.error).join(' ') : UPLOAD_TEXTS.previewFailed}</Text>
          </Alert>
        )}

        {waiting && preview && (
          <>
            <Text fz="sm" c="dimmed">
              {UPLOAD_TEXTS.previewIntro}
            </Text>
            <Group gap="xs" data-testid="import-preview-counts" aria-label="Counts">
              {(['created', 'saved', 'unchanged', 'failed'] as const).map((o) => (
                <Badge key={o} color={OUTCOME_COLORS[o]} variant="dot" tt="none" size="lg">
                  {UPLOAD_TEXTS.previewOutcomes[o]}: {preview.counts[o]}
                </Badge>
              ))}
            </Group>
            <ScrollArea.Autosize mah="55vh" type="auto" offsetScrollbars>
              <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="import-preview-table">
                <Table.Caption>{UPLOAD_TEXTS.previewCounts(preview.counts)}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Item</Table.Th>
                    <Table.Th scope="col">Month</Table.Th>
                    <Table.Th scope="col">Outcome</Table.Th>
                    <Table.Th scope="col">Detail</Table.Th>
                    <Table.Th scope="col">{UPLOAD_TEXTS.previewOverwrite}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.lines.map((line, i) => {
                    const key = overwriteKey(line.itemKey, line.monthId);
                    const item = line.itemKey ? `${line.itemKey} (${formatMonthId(line.monthId)})` : line.message;
                    return (
                      <Table.Tr key={i} data-testid="import-preview-row" data-item={line.itemKey} data-outcome={line.outcome}>
                        <Table.Th scope="row" fw={600} style={{ overflowWrap: 'anywhere' }}>
                          {line.itemKey || line.message.split(':')[0]}
                        </Table.Th>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{line.monthId ? formatMonthId(line.monthId) : ''}</Table.Td>
                        <Table.Td>
                          <Badge color={OUTCOME_COLORS[line.outcome]} variant="dot" tt="none">
                            {UPLOAD_TEXTS.previewOutcomes[line.outcome]}
                          </Badge>
                        </Table.Td>
                        <Table.Td fz="sm" style={{ overflowWrap: 'anywhere' }}>
                          {detailOf(line)}
                        </Table.Td>
                        <Table.Td>
                          {line.overwritable && (
                            <Checkbox
                              checked={overwrite.has(key)}
                              onChange={(e) => toggle(key, e.currentTarget.checked)}
                              aria-label={UPLOAD_TEXTS.previewOverwriteLabel(item)}
                              disabled={busy}
                              data-testid="import-preview-overwrite"
                            />
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </>
        )}

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={over ? onDone : onCancel} loading={cancel.isPending} disabled={apply.isPending} data-testid="import-preview-cancel">
            {over ? UPLOAD_TEXTS.previewClose : UPLOAD_TEXTS.previewCancel}
          </Button>
          <DisabledReason reason={!apply.isPending && (cancel.isPending ? 'Cancelling the preview' : !preview ? 'The preview is being computed' : !waiting && 'This preview can no longer be applied')}>
            <Button onClick={onApply} loading={apply.isPending} data-testid="import-preview-apply">
              {UPLOAD_TEXTS.previewApply}
            </Button>
          </DisabledReason>
        </Group>
      </Stack>
    </Paper>
  );
}
