import { Alert, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { UPLOAD_TYPE_LABELS, type UploadItem } from '@bo/shared/uploads';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type DataTableColumn, DataTable } from '@/components/ui/data-table';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatDateTime } from '@/lib/format';
import { useUploads } from '../api/get-uploads';
import { formatFileSize } from '../logic/upload-file';
import { showUploadResponse } from './upload-response-popup';

const PROGRESS_COLORS: Record<UploadItem['status'], string> = { WIP: 'yellow', DONE: 'teal', ERROR: 'red', PREVIEW: 'blue', CANCELLED: 'gray', EXPIRED: 'gray' };

/** Headers that never wrap: 'User name' in two lines at 1024 px read like two columns. */
const header = (text: string) => <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;

const columns: DataTableColumn<UploadItem>[] = [
  { key: 'date', header: header('Date'), width: 150, render: (u) => <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(u.insertTime)}</Text> },
  { key: 'user', header: header('User name'), render: (u) => <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>{u.userId}</Text> },
  {
    key: 'type',
    header: header('Import'),
    width: 120,
    // 'Release files' on one line: in two it reads like two rows.
    render: (u) => (
      <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {UPLOAD_TYPE_LABELS[u.type] ?? u.type}
      </Text>
    ),
  },
  {
    key: 'file',
    header: header('File'),
    render: (u) => (
      <Stack gap={0} miw={120}>
        <Text fz="sm" lineClamp={2} title={u.fileName} style={{ overflowWrap: 'anywhere' }}>
          {u.fileName}
        </Text>
        <Text fz="xs" c="dimmed">
          {formatFileSize(u.size)}
        </Text>
      </Stack>
    ),
  },
  { key: 'status', header: header('Status'), width: 100, render: (u) => <StatusBadge status={u.status} {...(u.status === 'PREVIEW' ? { color: 'blue' } : {})} /> },
  {
    key: 'progress',
    header: header('Progress'),
    width: 150,
    render: (u) => (
      <Group gap="xs" wrap="nowrap" data-testid="upload-progress">
        <Progress value={u.progress} color={PROGRESS_COLORS[u.status]} size="md" radius="xl" w={84} striped={u.status === 'WIP'} animated={u.status === 'WIP'} aria-label={`Progress ${u.progress}%`} />
        <Text fz="xs" c="dimmed" w={36} ta="right">
          {Math.round(u.progress)}%
        </Text>
      </Group>
    ),
  },
  {
    key: 'response',
    header: header('Response'),
    width: 100,
    render: (u) => (
      <Button size="compact-sm" variant="light" disabled={!u.response} onClick={() => showUploadResponse(u)} data-testid="upload-show-response">
        Show
      </Button>
    ),
  },
];

/**
 * The upload history (part 2 §2 "Upload and export histories": Date, User name, Import, Status,
 * Progress, Response with Show), newest first as the server sends it, read again every 5 seconds.
 * Self-contained so that /history can show it too.
 */
export function UploadHistoryTable({ pageSize = 10 }: { pageSize?: number }) {
  const uploads = useUploads();
  return (
    <Stack gap="sm">
      {uploads.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="uploads-load-error">
          <Text fz="sm">The upload list could not be read: {uploads.error.message}</Text>
          <Text fz="xs" c="dimmed">
            It is read again every 5 seconds.
          </Text>
        </Alert>
      )}
      <DataTable
        label="Upload history"
        data={uploads.data?.list ?? []}
        columns={columns}
        getRowKey={(u) => u.id}
        loading={uploads.isPending && !uploads.isError}
        pageSize={pageSize}
        rowTestId={(u) => `upload-row-${u.id}`}
      />
    </Stack>
  );
}

/** The upload history as both upload pages show it: a titled panel around the table. */
export function UploadHistoryPanel() {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" wrap="wrap">
          <Title order={4} fw={650}>
            Upload history
          </Title>
          <Text fz="xs" c="dimmed">
            Newest first · refreshed every 5 seconds
          </Text>
        </Group>
        <UploadHistoryTable />
      </Stack>
    </Paper>
  );
}
