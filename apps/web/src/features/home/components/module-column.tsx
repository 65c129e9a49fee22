import { Button } from '@mantine/core';
import { moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleListItem } from '@bo/shared/search';
import { isAdmin } from '@bo/shared/permissions';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { OpenButton } from './column-actions';
import { formatInteger } from '@/lib/format';
import type { Sortable } from '../logic/sort-items';
import { ITEM_ROW_HEIGHT } from './item-meta';
import { DeleteCreateTools, ItemResultRow, type ColumnProps } from './item-result-row';
import { ResultColumn } from './result-column';

export const moduleKey = moduleKeyString;

const MODULE_SORTS = ['default', 'name', 'status', 'lastChange'] as const;
const sortable = (m: ModuleListItem): Sortable => ({ name: m.moduleLabel, status: m.status, updatedAt: m.updatedAt });
const plural = (n: number, one: string, many: string) => `${formatInteger(n)} ${n === 1 ? one : many}`;

/** SKUs (MH + EL, the bin left out) and doors: what a planner weighs a module by. */
export const moduleFacts = (m: ModuleListItem) => [
  plural(m.length + m.elLength, 'SKU', 'SKUs'),
  `MH ${formatInteger(m.length)} / EL ${formatInteger(m.elLength)}`,
  plural(m.door, 'door', 'doors'),
];

export function ModuleColumn(column: ColumnProps & { modules: readonly ModuleListItem[]; onMassiveEdit: () => void }) {
  const { modules, grants, selected, onSelectedChange, onOpen, onMassiveEdit } = column;
  return (
    <ResultColumn
      title="Module Selection"
      testId="module-column"
      items={modules}
      getKey={moduleKey}
      getText={(m) => `${m.moduleLabel} ${m.moduleName}`}
      selected={selected}
      onSelectedChange={onSelectedChange}
      emptyText="No modules"
      rowHeight={ITEM_ROW_HEIGHT}
      sortKeys={MODULE_SORTS}
      getSortable={sortable}
      actions={
        <>
          <OpenButton label="Open" disabled={selected.size === 0} disabledReason="Select the modules to open first" onClick={onOpen} testId="open-modules" />
          {isAdmin(grants) && (
            <DisabledReason reason={selected.size === 0 && 'Select the modules to edit first'}>
              <Button variant="subtle" size="compact-sm" onClick={onMassiveEdit} data-testid="massive-edit-selected">
                Massive edit
              </Button>
            </DisabledReason>
          )}
        </>
      }
      tools={<DeleteCreateTools kind="module" column={column} />}
      renderRow={(m, isSelected, toggle) => (
        <ItemResultRow of={{ kind: 'module', item: m }} facts={[...moduleFacts(m), m.starZones.join(' ')]} grants={grants} selected={isSelected} onToggle={toggle} />
      )}
    />
  );
}
