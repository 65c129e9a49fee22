import { readStoredRows } from '../hooks/use-rows-table';
import { initialRows } from '../logic/rows-reducer';
import { MassiveEditPage } from './massive-edit-page';

const initial = () => readStoredRows() ?? initialRows('module');

/** /massive-edit-wi: modules, clusters or client classifications edited in bulk from typed or pasted rows. */
export function MassiveEditMainPage() {
  return (
    <MassiveEditPage
      title="Massive Edit"
      description="Edit many modules, clusters or client classifications at once. Type the rows or paste them from a spreadsheet; Preview shows what would change before you save."
      target="page"
      initial={initial}
      persist
    />
  );
}
