import { type DraftRow, emptyRow } from './draft-rows';
import { initialRows, type RowsState } from './rows-reducer';

/**
 * /massive-edit-selected-wi: one module row per module selected on home, MODULE = its name and MONTH =
 * its month; the description stays blank (nothing to change) with the current text as its placeholder.
 */
/** The part of home's selection (lib/massive-edit-storage.ts) the rows need. */
interface SelectedModules {
  modules: readonly { moduleName: string; monthId: string; moduleDescription: string }[];
}

export function selectedRows(selection: SelectedModules | null): RowsState {
  const rows = (selection?.modules ?? []).map((m, i): DraftRow => {
    const row = emptyRow('module', `r${i}`);
    return {
      ...row,
      values: { ...row.values, moduleLabels: m.moduleName, monthIdList: m.monthId },
      placeholders: m.moduleDescription ? { moduleDescription: m.moduleDescription } : undefined,
      // Nothing to change yet, as expected on opening: not red until the planner types in or leaves the row.
      pristine: true,
    };
  });
  return initialRows('module', rows);
}
