import { Checkbox, Group } from '@mantine/core';

/**
 * A row of a virtual list that a click selects or unselects (home's result columns, Export Data's
 * results): its checkbox first, then `children`; the selected row is tinted.
 */
export function SelectableRow({
  selected,
  onToggle,
  disabled,
  label,
  testId,
  dataKey,
  children,
}: {
  selected: boolean;
  onToggle: () => void;
  disabled?: boolean;
  /** What the row is: the checkbox is 'Select <label>'. */
  label: string;
  testId?: string;
  dataKey?: string;
  children: React.ReactNode;
}) {
  return (
    <Group
      h="100%"
      px="md"
      gap="sm"
      wrap="nowrap"
      data-testid={testId}
      data-key={dataKey}
      data-selected={selected || undefined}
      onClick={() => !disabled && onToggle()}
      style={{
        cursor: disabled ? 'default' : 'pointer',
        borderBottom: '1px solid var(--mantine-color-gray-1)',
        background: selected ? 'var(--mantine-color-brand-0)' : undefined,
      }}
    >
      <Checkbox checked={selected} disabled={disabled} onChange={onToggle} onClick={(e) => e.stopPropagation()} aria-label={`Select ${label}`} size="xs" />
      {children}
    </Group>
  );
}
