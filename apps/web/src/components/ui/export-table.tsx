import { Alert, Button, Stack, Text } from '@mantine/core';
import { exportTypeLabel } from '@bo/shared/export-history';
import { EXPORT_TEXTS, exportItemsText, exportKindText, exportMonthsText, type ExportItem } from '@bo/shared/exports';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { type DataTableColumn, DataTable } from '@/components/ui/data-table';
import { JobProgress } from '@/components/ui/job-history';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatDateTime } from '@/lib/format';

/** An export as the PDF area and the export history list it; the file's name when the list gives one. */
type ExportRow = ExportItem & { fileName?: string | null };


/** Headers on one line: 'User name' in two lines at 1024 px reads like two columns. */
const header = (text: string) => <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;

/** Why an export failed: its message, or the spec's 'Oops, Something Went Wrong' (part 2 §2 "PDF FILES AREA"). */
const exportErrorText = (item: Pick<ExportItem, 'message'>) => item.message?.trim() || EXPORT_TEXTS.failed;

function columns(typeHeader: string): DataTableColumn<ExportRow>[] {
  return [
    { key: 'date', header: header('Date'), width: 150, render: (e) => <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.date)}</Text> },
    { key: 'user', header: header('User name'), render: (e) => <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>{e.user}</Text> },
    {
      key: 'type',
      header: header(typeHeader),
      // The format, then what the export holds (issue 34: two exports of one format and day differ here):
      // kind, count and month, the first names, and the file's name once built. In the spec's Export
      // column rather than columns of their own, so that the history's table still fits 1024 px.
      render: (e) => (
        <Stack gap={0} miw={170} maw={320}>
          <Text fz="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {exportTypeLabel(e.exportType)}
          </Text>
          <Stack gap={0} data-testid="export-items">
            <Text fz="xs" fw={600}>
              {exportKindText(e)}
              {e.monthIds.length > 0 && (
                <>
                  {' · '}
                  <span data-testid="export-months">{exportMonthsText(e)}</span>
                </>
              )}
            </Text>
            {e.itemNames.length > 0 && (
              <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {exportItemsText(e)}
              </Text>
            )}
          </Stack>
          {e.fileName && (
            <Text fz="xs" c="dimmed" lineClamp={1} title={e.fileName} style={{ overflowWrap: 'anywhere' }}>
              {e.fileName}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'status',
      header: header('Status'),
      render: (e) => (
        <Stack gap={4} align="flex-start" maw={320}>
          <StatusBadge status={e.status} />
          {e.status === 'ERROR' && (
            <Text fz="xs" c="red.8" style={{ overflowWrap: 'anywhere' }} data-testid="export-error">
              {exportErrorText(e)}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'progress',
      header: header('Progress'),
      width: 150,
      render: (e) => <JobProgress progress={e.progress} status={e.status} testId="export-progress" />,
    },
    {
      key: 'action',
      header: header('Action'),
      width: 130,
      // A plain link: the download accepts the session cookie, and the browser names the file from the answer.
      render: (e) =>
        e.status === 'DONE' && e.pdfUrl ? (
          <Button component="a" href={e.pdfUrl} download size="compact-sm" variant="light" leftSection={<IconDownload size={14} />} data-testid="export-download">
            DOWNLOAD
          </Button>
        ) : null,
    },
  ];
}

export interface ExportTableProps {
  label: string;
  /** The header of the format column ('Export' in the history, 'Type' in the PDF area). */
  typeHeader: string;
  exports: readonly ExportRow[] | undefined;
  loading: boolean;
  /** Why the list could not be read (it is read again on its own). */
  error: Error | null;
  emptyMessage: React.ReactNode;
  pageSize?: number;
}

/**
 * The export lists of the PDF area and of the export history (part 2 §3 "Export item"): date, user,
 * format with what it holds (kind, count, months, first names and how many more) and the file's name,
 * status with the error text of a failed export, progress, and DOWNLOAD once the file is built.
 * Rows come newest first from the server; the table pages them on the client.
 */
export function ExportTable({ label, typeHeader, exports, loading, error, emptyMessage, pageSize = 10 }: ExportTableProps) {
  return (
    <Stack gap="sm">
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="exports-load-error">
          <Text fz="sm">The export list could not be read: {error.message}</Text>
          <Text fz="xs" c="dimmed">
            It is read again every 5 seconds.
          </Text>
        </Alert>
      )}
      <DataTable
        label={label}
        data={exports ?? []}
        columns={columns(typeHeader)}
        getRowKey={(e) => e.id}
        loading={loading && !error}
        pageSize={pageSize}
        emptyMessage={emptyMessage}
        rowTestId={(e) => `export-row-${e.id}`}
      />
    </Stack>
  );
}
