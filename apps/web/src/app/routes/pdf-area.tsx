import { PageContent } from '@/components/layout/page-content';
import { PdfAreaPage } from '@/features/pdf-area/components/pdf-area-page';

/** PDF FILES AREA (/pdf-area; part 2 §2). */
export function PdfAreaRoute() {
  return (
    <PageContent>
      <PdfAreaPage />
    </PageContent>
  );
}
