import { ActionIcon, Group, MultiSelect, NativeSelect, NumberInput, Pill, Text, Textarea, Tooltip } from '@mantine/core';
import type { MassiveEditType } from '@bo/shared/massive-edit';
import { LIMITS } from '@bo/shared/validation';
import { IconTrash } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef } from 'react';
import { formatMonthId } from '@/lib/format';
import { type DraftRow, normalizeMinValue, parseMonthToken, type RowAnalysis, splitLines } from '../logic/draft-rows';
import { COLUMNS, type FieldDef, FIELDS } from '../logic/fields';
import { isOrdinaryPaste, parseClipboardTable, pastedValue, withoutHeaderLine } from '../logic/paste';
import type { RowsAction } from '../logic/rows-reducer';
import classes from './massive-edit-table.module.css';

const NUMBER_WIDTH = 36;
const ACTIONS_WIDTH = 36;
const SELECT_ALL = '__select_all__';
const MONTH_PILLS = 2;

export interface MassiveEditTableProps {
  type: MassiveEditType;
  rows: readonly DraftRow[];
  analyse: (row: DraftRow) => RowAnalysis;
  /** What the server refused on a row (a 400's fields), until the row is edited. */
  serverErrors: ReadonlyMap<string, string[]>;
  monthOptions: readonly { value: string; label: string }[];
  dispatch: (action: RowsAction) => void;
  onRowEdited: (rowId: string) => void;
  disabled?: boolean;
}

/**
 * The editable table of one assortment type. Rows are virtualised (TanStack Virtual, measured rows):
 * a pasted sheet of a thousand rows renders only those in view; each row re-renders only when it changes.
 * Pasting a block (tabs or line breaks) into any cell fills the table from that cell (logic/paste.ts).
 */
export function MassiveEditTable({ type, rows, analyse, serverErrors, monthOptions, dispatch, onRowEdited, disabled = false }: MassiveEditTableProps) {
  const columns = COLUMNS[type];
  const template = `${NUMBER_WIDTH}px ${columns.map((c) => `minmax(${c.width}px, ${c.width}fr)`).join(' ')} ${ACTIONS_WIDTH}px`;
  const minWidth = NUMBER_WIDTH + ACTIONS_WIDTH + columns.reduce((sum, c) => sum + c.width, 0) + 8 * (columns.length + 1) + 16;
  const frameRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => frameRef.current,
    estimateSize: () => 54,
    overscan: 6,
    getItemKey: (index) => rows[index]!.id,
  });

  // A row added on top is where the planner looks next.
  const firstId = rows[0]?.id;
  useEffect(() => {
    frameRef.current?.scrollTo({ top: 0 });
  }, [firstId]);

  return (
    <div ref={frameRef} className={classes.frame} data-testid="massive-edit-table" data-type={type}>
      <div style={{ minWidth }} role="table" aria-label={`${type} rows`} aria-rowcount={rows.length + 1}>
        <div className={`${classes.grid} ${classes.header}`} style={{ gridTemplateColumns: template }} role="row">
          <span className={classes.number} role="columnheader">
            #
          </span>
          {columns.map((c) => (
            <span key={c.header} role="columnheader">
              {c.header}
            </span>
          ))}
          <span className={classes.actions} role="columnheader" aria-label="Remove" />
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
              >
                <EditRow
                  type={type}
                  row={row}
                  index={item.index}
                  analysis={analyse(row)}
                  serverErrors={serverErrors.get(row.id)}
                  template={template}
                  monthOptions={monthOptions}
                  dispatch={dispatch}
                  onRowEdited={onRowEdited}
                  disabled={disabled}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface EditRowProps {
  type: MassiveEditType;
  row: DraftRow;
  index: number;
  analysis: RowAnalysis;
  serverErrors: string[] | undefined;
  template: string;
  monthOptions: readonly { value: string; label: string }[];
  dispatch: (action: RowsAction) => void;
  onRowEdited: (rowId: string) => void;
  disabled: boolean;
}

const EditRow = memo(function EditRow({ type, row, index, analysis, serverErrors, template, monthOptions, dispatch, onRowEdited, disabled }: EditRowProps) {
  const fields = FIELDS[type];
  const byKey = useMemo(() => new Map(fields.map((f) => [f.key, f])), [fields]);
  const number = index + 1;
  // A prefilled row shows its rule errors once the planner types in it, leaves it or presses a save button.
  const errors = [...(row.pristine ? [] : analysis.errors), ...(serverErrors ?? [])];
  const onBlur = (event: React.FocusEvent<HTMLDivElement>) => {
    if (!row.pristine) return;
    const to = event.relatedTarget as Node | null;
    // Focus moving to a month dropdown (in a portal) or within the row is not leaving it.
    if (to && (event.currentTarget.contains(to) || (to instanceof Element && to.closest('[data-combobox-dropdown], .mantine-Combobox-dropdown')))) return;
    dispatch({ type: 'touch', id: row.id });
  };
  const set = (key: string, value: string) => {
    dispatch({ type: 'set', id: row.id, key, value });
    if (serverErrors) onRowEdited(row.id);
  };
  const onPaste = (key: string) => (event: React.ClipboardEvent) => {
    const text = event.clipboardData.getData('text/plain');
    const field = byKey.get(key)!;
    if (!text) return;
    if (isOrdinaryPaste(text, field)) {
      // A column copied with its title (MODULE above the names): the names only.
      const values = field.kind === 'list' ? withoutHeaderLine(type, field, text) : text;
      if (values === text) return;
      event.preventDefault();
      const current = row.values[key] ?? '';
      set(key, pastedValue(field, current.trim() ? `${current}\n${values}` : values));
      return;
    }
    event.preventDefault();
    dispatch({ type: 'paste', id: row.id, key, table: parseClipboardTable(text) });
    onRowEdited(row.id);
  };
  const props = { row, number, set, onPaste, monthOptions, disabled };

  return (
    <div className={`${classes.row} ${errors.length ? classes.rowInvalid : ''}`} data-testid="massive-edit-row" data-row={number} data-invalid={errors.length > 0 || undefined} onBlur={onBlur}>
      <div className={classes.grid} style={{ gridTemplateColumns: template }} role="row" aria-rowindex={number + 1}>
        <span className={classes.number} role="cell">
          {number}
        </span>
        {COLUMNS[type].map((column) => (
          <div key={column.header} className={classes.cell} role="cell">
            {column.fields.length === 1 ? (
              <FieldInput field={byKey.get(column.fields[0]!)!} {...props} />
            ) : (
              <Group gap={4} wrap="nowrap" align="flex-start">
                {column.fields.map((key) => (
                  <div key={key} style={byKey.get(key)!.kind === 'number' ? { width: 58, flexShrink: 0 } : { flex: 1, minWidth: 0 }}>
                    <FieldInput field={byKey.get(key)!} {...props} />
                  </div>
                ))}
              </Group>
            )}
          </div>
        ))}
        <div className={classes.actions} role="cell">
          <Tooltip label="Remove row" openDelay={400}>
            <ActionIcon variant="subtle" color="gray" mt={2} aria-label={`Remove row ${number}`} onClick={() => dispatch({ type: 'remove', id: row.id })} disabled={disabled} data-testid="remove-row">
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </div>
      </div>
      {errors.length > 0 && (
        <div className={classes.errors} data-testid="row-errors">
          {errors.map((error, i) => (
            <Text key={i} fz="xs" c="red.8" lh={1.4}>
              {error}
            </Text>
          ))}
        </div>
      )}
    </div>
  );
});

interface FieldInputProps {
  field: FieldDef;
  row: DraftRow;
  number: number;
  set: (key: string, value: string) => void;
  onPaste: (key: string) => (event: React.ClipboardEvent) => void;
  monthOptions: readonly { value: string; label: string }[];
  disabled: boolean;
}

function FieldInput({ field, row, number, set, onPaste, monthOptions, disabled }: FieldInputProps) {
  const value = row.values[field.key] ?? '';
  const common = {
    'aria-label': `${field.label} row ${number}`,
    'data-testid': `cell-${field.key}`,
    onPaste: onPaste(field.key),
    disabled,
    size: 'xs' as const,
  };
  switch (field.kind) {
    case 'list':
      return (
        <Textarea
          {...common}
          value={value}
          onChange={(e) => set(field.key, e.currentTarget.value)}
          autosize
          minRows={1}
          maxRows={5}
          placeholder={field.kind === 'list' && field.key === 'upcMinValueSkuList' ? 'SKUs' : 'one per line'}
          spellCheck={false}
        />
      );
    case 'text':
      return (
        <Textarea
          {...common}
          value={value}
          onChange={(e) => set(field.key, e.currentTarget.value.replace(/\n/g, ' '))}
          autosize
          minRows={1}
          maxRows={3}
          maxLength={LIMITS.description}
          placeholder={row.placeholders?.[field.key] ?? ''}
          // The current description can be longer than the cell shows.
          title={row.placeholders?.[field.key] ? `Now: ${row.placeholders[field.key]}` : undefined}
        />
      );
    case 'status': {
      const upper = value.trim().toUpperCase();
      const data = upper === 'MH' || upper === 'EL' || !upper ? ['MH', 'EL'] : ['MH', 'EL', value];
      return <NativeSelect {...common} value={upper === 'MH' || upper === 'EL' ? upper : value || 'MH'} data={data} onChange={(e) => set(field.key, e.currentTarget.value)} />;
    }
    case 'months': {
      const tokens = splitLines(value);
      const chosen = [...new Set(tokens.map((t) => parseMonthToken(t) ?? t))];
      const known = new Set(monthOptions.map((o) => o.value));
      // A pasted month that is not open (or not a month) stays visible: the row's error names it.
      const extra = chosen.filter((m) => !known.has(m)).map((m) => ({ value: m, label: parseMonthToken(m) ? `${formatMonthId(m)} (not open)` : m }));
      const data = [...(monthOptions.length > 1 ? [{ value: SELECT_ALL, label: 'Select All' }] : []), ...monthOptions, ...extra];
      return (
        <MultiSelect
          {...common}
          data={data}
          value={chosen}
          onChange={(next) => set(field.key, (next.includes(SELECT_ALL) ? monthOptions.map((o) => o.value) : next).join('\n'))}
          placeholder={chosen.length ? undefined : 'Months'}
          searchable
          maxDropdownHeight={240}
          styles={{ inputField: { minWidth: 8 } }}
          // Up to two months, else the first and '+N': a row with every month stays one line high.
          renderPill={({ option, value: month, onRemove, disabled: off }) => {
            const at = chosen.indexOf(String(month));
            const shown = chosen.length <= MONTH_PILLS ? MONTH_PILLS : 1;
            if (at < shown)
              return (
                <Pill key={String(month)} withRemoveButton={!off} onRemove={onRemove}>
                  {option.label}
                </Pill>
              );
            return at === shown ? <Pill key="more">+{chosen.length - shown}</Pill> : null;
          }}
          comboboxProps={{ withinPortal: true }}
          nothingFoundMessage="No open month"
        />
      );
    }
    case 'number': {
      const hasSkus = splitLines(row.values.upcMinValueSkuList).length > 0;
      return (
        <NumberInput
          {...common}
          disabled={disabled || !hasSkus}
          value={value}
          onChange={(v) => set(field.key, String(v))}
          onBlur={() => set(field.key, normalizeMinValue(value))}
          min={1}
          step={0.1}
          decimalScale={1}
          allowNegative={false}
          maxLength={LIMITS.minValueChars}
          hideControls
          title={hasSkus ? undefined : 'Enter min value SKUs first'}
        />
      );
    }
  }
}
