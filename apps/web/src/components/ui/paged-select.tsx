import {
  CheckIcon,
  Combobox,
  Group,
  Input,
  InputBase,
  Pill,
  PillsInput,
  ScrollArea,
  Text,
  useCombobox,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useMemo, useState } from 'react';

export interface PagedSelectOption {
  value: string;
  label: string;
}

/** Options shown per scroll step (part 2 §9: "50 items per scroll step, more on scroll to the bottom"). */
const PAGE_STEP = 50;

interface CommonProps {
  label?: React.ReactNode;
  description?: React.ReactNode;
  placeholder?: string;
  data: readonly PagedSelectOption[];
  disabled?: boolean;
  required?: boolean;
  error?: React.ReactNode;
  /** Shown in the dropdown's search box. */
  searchPlaceholder?: string;
  /** Longest text the search box takes. */
  searchMaxLength?: number;
  nothingFound?: string;
  /** How many options each scroll step adds. */
  pageSize?: number;
  /** Multi: at most this many pills, then "+N". */
  maxPills?: number;
  'data-testid'?: string;
  /** Names the field when it has no visible label. */
  'aria-label'?: string;
  /** Show an option's value beside its label when they differ (codes beside names); off for values no planner reads (month ids). */
  showValues?: boolean;
}

export interface PagedSelectSingleProps extends CommonProps {
  multiple?: false;
  value: string | null;
  onChange: (value: string | null) => void;
  clearable?: boolean;
  /** With nothing chosen, the dropdown opens scrolled to this option, highlighted (a month list opens at the current month). */
  openAt?: string | null;
}

export interface PagedMultiSelectProps extends CommonProps {
  multiple: true;
  value: string[];
  onChange: (value: string[]) => void;
  /** Stop adding at this many values (the option list stays visible). */
  maxValues?: number;
}

export type PagedSelectProps = PagedSelectSingleProps | PagedMultiSelectProps;

const matches = (option: PagedSelectOption, query: string) => {
  if (!query) return true;
  const q = query.toLowerCase();
  return option.label.toLowerCase().includes(q) || option.value.toLowerCase().includes(q);
};

/**
 * The one select of the back office for option lists of any length (single or multiple): a search box
 * filters the whole list; the dropdown renders 50 options and 50 more each time the list is scrolled
 * to the bottom, so a list of thousands opens at once.
 */
export function PagedSelect(props: PagedSelectProps) {
  const { label, description, placeholder, data, disabled, required, error, searchPlaceholder = 'Search', searchMaxLength, nothingFound = 'Nothing found', pageSize = PAGE_STEP, showValues = true } = props;
  const inputId = useId();
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState(pageSize);
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch('');
      setShown(pageSize);
    },
    onDropdownOpen: () => combobox.focusSearchInput(),
  });

  const byValue = useMemo(() => new Map(data.map((o) => [o.value, o])), [data]);
  const filtered = useMemo(() => data.filter((o) => matches(o, search)), [data, search]);
  const visible = filtered.slice(0, shown);
  const selected = props.multiple ? props.value : props.value ? [props.value] : [];
  const labelOf = (value: string) => byValue.get(value)?.label ?? value;

  const pick = (value: string) => {
    if (props.multiple) {
      const current = props.value;
      if (current.includes(value)) props.onChange(current.filter((v) => v !== value));
      else if (!props.maxValues || current.length < props.maxValues) props.onChange([...current, value]);
    } else {
      props.onChange(value);
      combobox.closeDropdown();
    }
  };

  const onScroll = (position: { y: number }, viewport: HTMLDivElement | null) => {
    if (!viewport || shown >= filtered.length) return;
    if (position.y + viewport.clientHeight >= viewport.scrollHeight - 40) setShown((n) => n + pageSize);
  };
  const [viewport, setViewport] = useState<HTMLDivElement | null>(null);

  // Opening with nothing chosen: show the `openAt` option at the top of the list, highlighted (Enter picks it).
  const openAt = !props.multiple && !props.value ? (props.openAt ?? null) : null;
  const openAtIndex = openAt ? data.findIndex((o) => o.value === openAt) : -1;
  const opened = combobox.dropdownOpened;
  const openAtShown = openAtIndex >= 0 && openAtIndex < shown;
  useEffect(() => {
    if (!opened || openAtIndex < 0 || !viewport) return;
    if (!openAtShown) {
      setShown(Math.ceil((openAtIndex + 1) / pageSize) * pageSize);
      return;
    }
    const frame = requestAnimationFrame(() => {
      combobox.selectOption(openAtIndex);
      const option = viewport.querySelectorAll<HTMLElement>('[data-combobox-option]')[openAtIndex];
      if (option) viewport.scrollTop = option.offsetTop;
    });
    return () => cancelAnimationFrame(frame);
    // Once per opening: not again while the user scrolls or types.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- combobox and shown change while the list is in use
  }, [opened, openAtIndex, openAtShown, viewport]);

  const options = visible.map((option) => {
    const active = selected.includes(option.value);
    return (
      <Combobox.Option value={option.value} key={option.value} active={active} aria-selected={active}>
        <Group gap="xs" wrap="nowrap">
          {props.multiple && (active ? <CheckIcon size={12} /> : <span style={{ width: 12 }} />)}
          <Text fz="sm" truncate="end" fw={active && !props.multiple ? 600 : 400}>
            {option.label}
          </Text>
          {showValues && option.label !== option.value && (
            <Text fz="xs" c="dimmed" ml="auto">
              {option.value}
            </Text>
          )}
        </Group>
      </Combobox.Option>
    );
  });

  const dropdown = (
    <Combobox.Dropdown>
      <Combobox.Search
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setShown(pageSize);
          combobox.updateSelectedOptionIndex();
        }}
        placeholder={searchPlaceholder}
        maxLength={searchMaxLength}
        leftSection={<IconSearch size={14} />}
        aria-label={`Search ${typeof label === 'string' ? label : (props['aria-label'] ?? 'options')}`}
      />
      <Combobox.Options>
        <ScrollArea.Autosize mah={260} type="auto" viewportRef={setViewport} onScrollPositionChange={(p) => onScroll(p, viewport)}>
          {options.length > 0 ? options : <Combobox.Empty>{nothingFound}</Combobox.Empty>}
          {filtered.length > visible.length && (
            <Text fz="xs" c="dimmed" ta="center" py={6}>
              Showing {visible.length} of {filtered.length}: scroll for more
            </Text>
          )}
        </ScrollArea.Autosize>
      </Combobox.Options>
    </Combobox.Dropdown>
  );

  const commonInput = {
    id: inputId,
    label,
    description,
    required,
    error,
    disabled,
    'data-testid': props['data-testid'],
    'aria-label': props['aria-label'],
  };

  if (props.multiple) {
    const maxPills = props.maxPills ?? 3;
    const pills = props.value.slice(0, maxPills).map((value) => (
      <Pill key={value} withRemoveButton={!disabled} onRemove={() => props.onChange(props.value.filter((v) => v !== value))}>
        {labelOf(value)}
      </Pill>
    ));
    return (
      <Combobox store={combobox} onOptionSubmit={pick} withinPortal disabled={disabled}>
        <Combobox.DropdownTarget>
          <PillsInput {...commonInput} pointer onClick={() => !disabled && combobox.toggleDropdown()} rightSection={<Combobox.Chevron />} rightSectionPointerEvents="none">
            {/* aria-disabled: the field's texts belong to an inactive control (exempt from the contrast rule). */}
            <Pill.Group aria-disabled={disabled || undefined}>
              {pills}
              {props.value.length > maxPills && <Pill>+{props.value.length - maxPills}</Pill>}
              <Combobox.EventsTarget>
                {/* No close on blur here: opening moves the focus to the dropdown's search box. */}
                <PillsInput.Field
                  type="hidden"
                  aria-label={props['aria-label']}
                  onKeyDown={(event) => {
                    if (event.key === 'Backspace' && props.value.length > 0) props.onChange(props.value.slice(0, -1));
                  }}
                />
              </Combobox.EventsTarget>
              {props.value.length === 0 && <Input.Placeholder>{placeholder}</Input.Placeholder>}
            </Pill.Group>
          </PillsInput>
        </Combobox.DropdownTarget>
        {dropdown}
      </Combobox>
    );
  }

  const single = props;
  return (
    <Combobox store={combobox} onOptionSubmit={pick} withinPortal disabled={disabled}>
      <Combobox.Target>
        <InputBase
          {...commonInput}
          // A button's name holds its visible text (WCAG 2.5.3): 'Month: Choose a month', 'Month: 11/2026'.
          aria-label={props['aria-label'] ? `${props['aria-label']}: ${single.value ? labelOf(single.value) : (placeholder ?? '')}` : undefined}
          component="button"
          type="button"
          pointer
          rightSection={
            single.clearable && single.value && !disabled ? (
              <Combobox.ClearButton onClear={() => single.onChange(null)} />
            ) : (
              <Combobox.Chevron />
            )
          }
          rightSectionPointerEvents={single.clearable && single.value ? 'all' : 'none'}
          onClick={() => combobox.toggleDropdown()}
        >
          {single.value ? labelOf(single.value) : <Input.Placeholder>{placeholder}</Input.Placeholder>}
        </InputBase>
      </Combobox.Target>
      {dropdown}
    </Combobox>
  );
}
