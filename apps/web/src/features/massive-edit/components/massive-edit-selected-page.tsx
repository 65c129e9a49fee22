import { readMassiveEditSelection } from '@/lib/massive-edit-storage';
import { selectedRows } from '../logic/selected-rows';
import { MassiveEditPage } from './massive-edit-page';

const initial = () => selectedRows(readMassiveEditSelection());

/** /massive-edit-selected-wi (admins): the module table prefilled with the modules selected on home. */
export function MassiveEditSelectedPage({ title }: { title: string }) {
  return (
    <MassiveEditPage
      title={title}
      description="One row per module selected on home, in its month. Fill in what to add, remove or change; a blank description keeps the current one (shown greyed)."
      target="selected"
      initial={initial}
      persist={false}
    />
  );
}
