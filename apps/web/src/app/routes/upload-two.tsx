import { PageContent } from '@/components/layout/page-content';
import { paths } from '@/config/paths';
import { UploadFilesPage } from '@/features/uploads/components/upload-files-page';
import { RequireAdmin } from '../require-admin';

/** Upload Files (/uploadTwo, admin only; part 2 §2). */
export function UploadTwoRoute() {
  return (
    <RequireAdmin title={paths.uploadTwo.title}>
      <PageContent>
        <UploadFilesPage />
      </PageContent>
    </RequireAdmin>
  );
}
