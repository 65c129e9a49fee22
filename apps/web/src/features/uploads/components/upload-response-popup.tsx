import { Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { UPLOAD_TYPE_LABELS, type UploadItem } from '@bo/shared/uploads';
import { modals } from '@mantine/modals';
import { formatDateTime } from '@/lib/format';
import { textLines } from '../logic/upload-file';

/** The response of an upload, one line per ';'-separated part (part 2 §2 "the response popup"). */
export function showUploadResponse(upload: UploadItem): void {
  const lines = textLines(upload.response);
  const id = `upload-response-${upload.id}`;
  modals.open({
    modalId: id,
    title: (
      <Stack gap={0}>
        <Text fw={700}>Response</Text>
        <Text fz="xs" c="dimmed">
          {/* bdi: a direction mark in the name (a right-to-left override) stays inside it, not reordering the date. */}
          {UPLOAD_TYPE_LABELS[upload.type]} · <bdi>{upload.fileName}</bdi> · {formatDateTime(upload.insertTime)}
        </Text>
      </Stack>
    ),
    centered: true,
    size: 'lg',
    children: (
      <Stack gap="md" data-testid="upload-response-popup">
        <ScrollArea.Autosize mah="60vh" type="auto" offsetScrollbars>
          <Stack gap={6}>
            {lines.length === 0 && (
              <Text fz="sm" c="dimmed">
                No response yet.
              </Text>
            )}
            {lines.map((line, i) => (
              <Text key={i} fz="sm" data-testid="upload-response-line" style={{ overflowWrap: 'anywhere' }}>
                {line}
              </Text>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button size="xs" onClick={() => modals.close(id)}>
            Ok
          </Button>
        </Group>
      </Stack>
    ),
  });
}
