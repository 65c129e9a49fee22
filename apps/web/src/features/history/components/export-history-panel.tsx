import { ExportTable } from '@/components/ui/export-table';
import { HistoryPanel } from '@/components/ui/job-history';
import { useExportHistory } from '../api/get-export-history';

const NO_EXPORTS = 'There are no exports yet.';

/**
 * The export history (part 2 §2 "Upload and export histories": Date, User name, Export, Status,
 * Progress, Action DOWNLOAD), newest first as the server sends it, read again every 5 seconds.
 */
export function ExportHistoryPanel() {
  const exports = useExportHistory();
  return (
    <HistoryPanel title="Export history" testId="export-history">
      <ExportTable label="Export history" typeHeader="Export" exports={exports.data} loading={exports.isPending} error={exports.error} emptyMessage={NO_EXPORTS} />
    </HistoryPanel>
  );
}
