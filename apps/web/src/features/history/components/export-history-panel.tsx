import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ExportTable } from '@/components/ui/export-table';
import { useExportHistory } from '../api/get-export-history';

export const NO_EXPORTS = 'There are no exports yet.';

/**
 * The export history (part 2 §2 "Upload and export histories": Date, User name, Export, Status,
 * Progress, Action DOWNLOAD), newest first as the server sends it, read again every 5 seconds.
 */
export function ExportHistoryPanel() {
  const exports = useExportHistory();
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="export-history">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" wrap="wrap">
          <Title order={4} fw={650}>
            Export history
          </Title>
          <Text fz="xs" c="dimmed">
            Newest first · refreshed every 5 seconds
          </Text>
        </Group>
        <ExportTable label="Export history" typeHeader="Export" exports={exports.data} loading={exports.isPending} error={exports.error} emptyMessage={NO_EXPORTS} />
      </Stack>
    </Paper>
  );
}
