import { PageContent } from '@/components/layout/page-content';
import { ImportDataPage } from '@/features/uploads/components/import-data-page';

/** Import Data (/upload; part 2 §2). */
export function UploadRoute() {
  return (
    <PageContent>
      <ImportDataPage />
    </PageContent>
  );
}
