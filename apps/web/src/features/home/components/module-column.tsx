import { Button } from '@mantine/core';
import { moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleListItem } from '@bo/shared/search';
import { canEdit, isAdmin } from '@bo/shared/permissions';
import type { Grant } from '@bo/shared/grants';
import { moduleUrl } from '@/lib/editor-urls';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { OpenButton } from './column-actions';
import { formatInteger } from '@/lib/format';
import type { Sortable } from '../logic/sort-items';
import { ITEM_ROW_HEIGHT } from './item-meta';
import { DeleteCreateTools, ItemResultRow } from './item-result-row';
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

export function ModuleColumn({
  modules,
  grants,
  selected,
  onSelectedChange,
  onOpen,
  onDelete,
  onCreate,
  onMassiveEdit,
  canCreate,
  createDisabledReason,
  canDeleteSelection,
}: {
  modules: readonly ModuleListItem[];
  grants: readonly Grant[];
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  onOpen: () => void;
  onDelete: () => void;
  onCreate: () => void;
  onMassiveEdit: () => void;
  canCreate: boolean;
  /** Why Create is off when it is not the missing right (a closed month). */
  createDisabledReason?: string;
  canDeleteSelection: boolean;
}) {
  const admin = isAdmin(grants);
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
          {admin && (
            <DisabledReason reason={selected.size === 0 && 'Select the modules to edit first'}>
              <Button variant="subtle" size="compact-sm" onClick={onMassiveEdit} data-testid="massive-edit-selected">
                Massive edit
              </Button>
            </DisabledReason>
          )}
        </>
      }
      tools={
        <DeleteCreateTools
          kind="module"
          selectedCount={selected.size}
          canDeleteSelection={canDeleteSelection}
          onDelete={onDelete}
          canCreate={canCreate}
          createDisabledReason={createDisabledReason}
          onCreate={onCreate}
        />
      }
      renderRow={(m, isSelected, toggle) => (
        <ItemResultRow
          target={{ type: 'module', key: { moduleName: m.moduleName, monthId: m.monthId } }}
          label={m.moduleLabel}
          status={m.status}
          rpasErrors={m.rpasErrors}
          facts={[...moduleFacts(m), m.starZones.join(' ')]}
          updatedBy={m.updatedBy}
          updatedAt={m.updatedAt}
          lockedBy={m.locked ? m.userLock : null}
          canUnlock={admin || canEdit(grants, { brand: m.brand, zones: m.starZones })}
          url={moduleUrl(m)}
          selected={isSelected}
          onToggle={toggle}
        />
      )}
    />
  );
}
