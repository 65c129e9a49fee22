import { ActionIcon, Button, Text, Tooltip } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ModuleListItem } from '@bo/shared/search';
import { canEdit, isAdmin } from '@bo/shared/permissions';
import type { Grant } from '@bo/shared/grants';
import { moduleUrl, openInNewTab } from '@/lib/editor-urls';
import { CreateButton, DeleteButton, OpenButton } from './column-actions';
import { ItemMeta } from './item-meta';
import { LockIndicator } from './lock-indicator';
import { ResultColumn, ResultRow } from './result-column';

export const moduleKey = (m: { moduleName: string; monthId: string }) => `${m.moduleName}|${m.monthId}`;

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
      actions={
        <>
          <OpenButton label="Open" disabled={selected.size === 0} onClick={onOpen} testId="open-modules" />
          {admin && (
            <Button variant="subtle" size="compact-sm" disabled={selected.size === 0} onClick={onMassiveEdit} data-testid="massive-edit-selected">
              Massive edit
            </Button>
          )}
        </>
      }
      tools={
        <>
          <DeleteButton label="Delete selected modules" disabled={selected.size === 0 || !canDeleteSelection} onClick={onDelete} testId="delete-modules" />
          <CreateButton label="Create module" disabled={!canCreate} disabledReason="You need the create right for the selected brand" onClick={onCreate} testId="create-module" />
        </>
      }
      renderRow={(m, isSelected, toggle) => (
        <ResultRow
          selected={isSelected}
          onToggle={toggle}
          label={m.moduleLabel}
          testId="module-row"
          trailing={
            <>
              {m.locked && m.userLock && (
                <LockIndicator
                  owner={m.userLock}
                  target={{ type: 'module', key: { moduleName: m.moduleName, monthId: m.monthId } }}
                  canUnlock={admin || canEdit(grants, { brand: m.brand, zones: m.starZones })}
                />
              )}
              <Tooltip label="Open in a new tab" withArrow openDelay={300}>
                <ActionIcon variant="subtle" size="sm" aria-label={`Open ${m.moduleName} in a new tab`} onClick={() => openInNewTab(moduleUrl(m))} data-testid="open-module-tab">
                  <IconExternalLink size={15} />
                </ActionIcon>
              </Tooltip>
            </>
          }
        >
          <Text fz="sm" fw={600} truncate="end" title={m.moduleLabel}>
            {m.moduleLabel}
          </Text>
          <ItemMeta code={m.moduleName} status={m.status} facts={[m.starZones.join(' ')]} />
        </ResultRow>
      )}
    />
  );
}
