import { ActionIcon, Button, Text, Tooltip } from '@mantine/core';
import { moduleKeyString } from '@bo/shared/item-keys';
import { IconExternalLink } from '@tabler/icons-react';
import type { ModuleListItem } from '@bo/shared/search';
import { canEdit, isAdmin } from '@bo/shared/permissions';
import type { Grant } from '@bo/shared/grants';
import { moduleUrl, openInNewTab } from '@/lib/editor-urls';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { CreateButton, DeleteButton, OpenButton } from './column-actions';
import { formatInteger } from '@/lib/format';
import type { Sortable } from '../logic/sort-items';
import { ItemMeta, ITEM_ROW_HEIGHT } from './item-meta';
import { LockIndicator } from './lock-indicator';
import { PresenceBadge } from '@/components/live/presence-badge';
import { ResultColumn, ResultRow } from './result-column';

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
        <>
          <DeleteButton label="Delete selected modules" disabled={selected.size === 0 || !canDeleteSelection} disabledReason={selected.size === 0 ? 'Select the modules to delete first' : 'You need the delete right on a selected module’s brand and zone'} onClick={onDelete} testId="delete-modules" />
          <CreateButton label="Create module" disabled={!canCreate} disabledReason={createDisabledReason ?? 'You need the create right for the selected brand'} onClick={onCreate} testId="create-module" />
        </>
      }
      renderRow={(m, isSelected, toggle) => (
        <ResultRow selected={isSelected} onToggle={toggle} label={m.moduleLabel} testId="module-row">
          <Text fz="sm" fw={600} lh="20px" truncate="end" title={m.moduleLabel} data-testid="module-label">
            {m.moduleLabel}
          </Text>
          <ItemMeta
            code={m.moduleName}
            status={m.status}
            rpasErrors={m.rpasErrors}
            facts={[...moduleFacts(m), m.starZones.join(' ')]}
            updatedBy={m.updatedBy}
            updatedAt={m.updatedAt}
            actions={
              <>
                <PresenceBadge item={{ kind: 'module', name: m.moduleName, monthId: m.monthId }} />
                {m.locked && m.userLock && (
                  <LockIndicator
                    owner={m.userLock}
                    target={{ type: 'module', key: { moduleName: m.moduleName, monthId: m.monthId } }}
                    canUnlock={admin || canEdit(grants, { brand: m.brand, zones: m.starZones })}
                  />
                )}
                <Tooltip label="Open in a new tab" withArrow openDelay={300}>
                  <ActionIcon variant="subtle" size={22} aria-label={`Open ${m.moduleName} in a new tab`} onClick={() => openInNewTab(moduleUrl(m))} data-testid="open-module-tab">
                    <IconExternalLink size={15} />
                  </ActionIcon>
                </Tooltip>
              </>
            }
          />
        </ResultRow>
      )}
    />
  );
}
