import { Stack } from '@mantine/core';
import { isAdmin } from '@bo/shared/permissions';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { ExportHistoryPanel } from './export-history-panel';

/**
 * /history (part 2 §2 "Upload and export histories"): the export history and, beside it, the upload
 * history, which the uploads feature owns (app/ hands it in: features do not import each other).
 */
export function HistoryPage({ uploadHistory }: { uploadHistory: React.ReactNode }) {
  const admin = useSession((s) => isAdmin(s.grants ?? []));
  return (
    <Stack gap="lg">
      <PageHeader
        title={paths.history.title}
        description={`${admin ? 'Everybody’s exports and uploads' : 'Your exports and uploads'}, newest first: download a finished export, or read what an import answered.`}
      />
      <ExportHistoryPanel />
      {uploadHistory}
    </Stack>
  );
}
