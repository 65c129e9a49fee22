import { PageContent } from '@/components/layout/page-content';
import { paths } from '@/config/paths';
import { MassiveEditSelectedPage } from '@/features/massive-edit/components/massive-edit-selected-page';
import { RequireAdmin } from '../require-admin';

/** /massive-edit-selected-wi (admin only, part 1 §2 "Massive edit selected table"). */
export function MassiveEditSelectedRoute() {
  return (
    <RequireAdmin title={paths.massiveEditSelected.title}>
      <PageContent>
        <MassiveEditSelectedPage title={paths.massiveEditSelected.title} />
      </PageContent>
    </RequireAdmin>
  );
}
