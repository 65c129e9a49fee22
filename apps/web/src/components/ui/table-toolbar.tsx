import { CloseButton, Group, SegmentedControl, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

export interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** Accessible name (the placeholder is not a label). */
  label: string;
  maxLength?: number;
}

/** A search field with a magnifier and a clear button. */
export function SearchBox({ value, onChange, placeholder, label, maxLength }: SearchBoxProps) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      value={value}
      maxLength={maxLength}
      onChange={(e) => onChange(e.currentTarget.value)}
      leftSection={<IconSearch size={16} stroke={1.6} />}
      rightSection={value ? <CloseButton size="sm" aria-label="Clear search" onClick={() => onChange('')} /> : null}
      w={320}
    />
  );
}

export interface SegmentFilterProps<V extends string> {
  value: V;
  onChange: (value: V) => void;
  /** The choices; put 'all' first for "no filter". */
  options: readonly { value: V; label: React.ReactNode }[];
  label: string;
}

/** A one-of-few filter (status …) as a segmented control. */
export function SegmentFilter<V extends string>({ value, onChange, options, label }: SegmentFilterProps<V>) {
  return (
    <SegmentedControl
      aria-label={label}
      value={value}
      onChange={(v) => onChange(v as V)}
      data={options.map((o) => ({ value: o.value, label: o.label }))}
      radius="md"
    />
  );
}

/** The row above a table: search and filters on the left, actions on the right. */
export function TableToolbar({ children, actions }: { children: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
      <Group gap="sm" wrap="wrap">
        {children}
      </Group>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}

/** Case-insensitive "contains" for text filters; an empty query matches everything. */
export function matchesText(value: string | null | undefined, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || (value ?? '').toLowerCase().includes(q);
}
