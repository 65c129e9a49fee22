import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconSparkles, IconStarFilled } from '@tabler/icons-react';
import type { MacroFamilyGroup } from '@bo/shared/search';
import type { Sortable } from '../logic/sort-items';
import { CreateButton, OpenButton } from './column-actions';
import { ResultColumn, ResultRow } from './result-column';

const SPECIAL = {
  BEST_SELLER: { icon: <IconStarFilled size={12} />, color: 'yellow', text: 'Best sellers' },
  NEWNESS: { icon: <IconSparkles size={12} />, color: 'teal', text: 'Newness' },
} as const;

const FAMILY_SORTS = ['default', 'name', 'lastChange'] as const;
/** A family's last change is its most recent module's. */
const sortable = (f: MacroFamilyGroup): Sortable => ({
  name: f.macroFamily,
  updatedAt: f.moduleList.reduce<string | null>((latest, m) => (!latest || m.updatedAt > latest ? m.updatedAt : latest), null),
});

export function FamilyColumn({
  families,
  selected,
  onSelectedChange,
  onOpen,
  onCreate,
  canCreate,
  createDisabledReason,
}: {
  families: readonly MacroFamilyGroup[];
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  onOpen: () => void;
  onCreate: () => void;
  canCreate: boolean;
  /** Why Create is off when it is not the missing right (a closed month). */
  createDisabledReason?: string;
}) {
  return (
    <ResultColumn
      title="Macrofamily Selection"
      testId="family-column"
      items={families}
      getKey={(f) => f.macroFamily}
      getText={(f) => f.macroFamily}
      selected={selected}
      onSelectedChange={onSelectedChange}
      emptyText="No macro families"
      rowHeight={48}
      sortKeys={FAMILY_SORTS}
      getSortable={sortable}
      sortLabels={{ default: 'Special first' }}
      actions={<OpenButton label="Open" disabled={selected.size === 0} disabledReason="Select the families to open first" onClick={onOpen} testId="open-families" />}
      tools={<CreateButton label="Create family" disabled={!canCreate} disabledReason={createDisabledReason ?? 'You need the create right'} onClick={onCreate} testId="create-family" />}
      renderRow={(f, isSelected, toggle) => {
        const special = f.specialKind === 'BEST_SELLER' || f.specialKind === 'NEWNESS' ? SPECIAL[f.specialKind] : null;
        return (
          <ResultRow selected={isSelected} onToggle={toggle} label={f.macroFamily} testId="family-row">
            <Group gap={8} wrap="nowrap">
              {special && (
                <ThemeIcon size={20} radius="xl" variant="light" color={special.color} role="img" aria-label={special.text}>
                  {special.icon}
                </ThemeIcon>
              )}
              <Text fz="sm" fw={600} truncate="end" title={f.macroFamily} style={{ minWidth: 0 }} data-testid="family-name">
                {f.macroFamily}
              </Text>
              <Text fz="xs" c="dimmed" ml="auto" style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
                {f.moduleList.length} {f.moduleList.length === 1 ? 'module' : 'modules'}
              </Text>
            </Group>
          </ResultRow>
        );
      }}
    />
  );
}
