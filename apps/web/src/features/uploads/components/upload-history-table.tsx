import { Alert, Button, Stack, Text } from '@mantine/core';
import { UPLOAD_TYPE_LABELS, type UploadItem } from '@bo/shared/uploads';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type DataTableColumn, DataTable } from '@/components/ui/data-table';
import { HistoryPanel, JobProgress } from '@/components/ui/job-history';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatDateTime } from '@/lib/format';
import { useUploads } from '../api/get-uploads';
import { formatFileSize } from '../logic/upload-file';
import { showUploadResponse } from './upload-response-popup';


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
    render: (u) => <JobProgress progress={u.progress} status={u.status} testId="upload-progress" />,
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
    <HistoryPanel title="Upload history">
      <UploadHistoryTable />
    </HistoryPanel>
  );
}
