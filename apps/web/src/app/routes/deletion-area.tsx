import { PageContent } from '@/components/layout/page-content';
import { DeletionAreaPage } from '@/features/deletion-area/components/deletion-area-page';

/** Deletion Area (/deletion-area; part 2 §2): deleted modules and clusters, and the restore of pending ones. */
export function DeletionAreaRoute() {
  return (
    <PageContent>
      <DeletionAreaPage />
    </PageContent>
  );
}
