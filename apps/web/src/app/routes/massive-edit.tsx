import { PageContent } from '@/components/layout/page-content';
import { MassiveEditMainPage } from '@/features/massive-edit/components/massive-edit-main-page';

/** /massive-edit-wi (part 2 §2 "Massive Edit page"). */
export function MassiveEditRoute() {
  return (
    <PageContent>
      <MassiveEditMainPage />
    </PageContent>
  );
}
