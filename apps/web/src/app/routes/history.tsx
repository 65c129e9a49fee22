import { PageContent } from '@/components/layout/page-content';
import { HistoryPage } from '@/features/history/components/history-page';
import { UploadHistoryPanel } from '@/features/uploads/components/upload-history-table';

/** Upload and export histories (/history; part 2 §2): the upload history is the one of the upload pages. */
export function HistoryRoute() {
  return (
    <PageContent>
      <HistoryPage uploadHistory={<UploadHistoryPanel />} />
    </PageContent>
  );
}
