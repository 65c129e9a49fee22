import { Badge, Group, Text, ThemeIcon } from '@mantine/core';
import { IconSparkles, IconStarFilled } from '@tabler/icons-react';
import type { MacroFamilyGroup } from '@bo/shared/search';
import { CreateButton, OpenButton } from './column-actions';
import { ResultColumn, ResultRow } from './result-column';

const SPECIAL = {
  BEST_SELLER: { icon: <IconStarFilled size={12} />, color: 'yellow', text: 'Best sellers' },
  NEWNESS: { icon: <IconSparkles size={12} />, color: 'teal', text: 'Newness' },
} as const;

export function FamilyColumn({
  families,
  selected,
  onSelectedChange,
  onOpen,
  onCreate,
  canCreate,
}: {
  families: readonly MacroFamilyGroup[];
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  onOpen: () => void;
  onCreate: () => void;
  canCreate: boolean;
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
      actions={<OpenButton label="Open" disabled={selected.size === 0} onClick={onOpen} testId="open-families" />}
      tools={<CreateButton label="Create family" disabled={!canCreate} disabledReason="You need the create right" onClick={onCreate} testId="create-family" />}
      renderRow={(f, isSelected, toggle) => {
        const special = f.specialKind === 'BEST_SELLER' || f.specialKind === 'NEWNESS' ? SPECIAL[f.specialKind] : null;
        return (
          <ResultRow selected={isSelected} onToggle={toggle} label={f.macroFamily} testId="family-row">
            <Group gap={8} wrap="nowrap">
              {special && (
                <ThemeIcon size={20} radius="xl" variant="light" color={special.color} aria-label={special.text}>
                  {special.icon}
                </ThemeIcon>
              )}
              <Text fz="sm" fw={600} truncate="end">
                {f.macroFamily}
              </Text>
              <Badge variant="outline" color="gray" size="sm" radius="sm" ml="auto">
                {f.moduleList.length} {f.moduleList.length === 1 ? 'module' : 'modules'}
              </Badge>
            </Group>
          </ResultRow>
        );
      }}
    />
  );
}
