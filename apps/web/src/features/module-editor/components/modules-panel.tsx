import { Badge, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical, IconSearch } from '@tabler/icons-react';
import { activeCounts, hasChanges, type EditorModule } from '../hooks/editor-reducer';
import { moduleStatusColor, statusLabel } from '../logic/labels';
import type { ModuleFilter } from '../logic/module-filter';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';
import { moduleOrderAccessibility } from '../logic/drag-announcements';
import classes from './modules-panel.module.css';

interface ModulesPanelProps {
  /** Every module of the page, in the page's order. */
  modules: EditorModule[];
  /** The keys the filter shows. */
  shown: ReadonlySet<ModuleKeyString>;
  filter: ModuleFilter;
  onFilter: (next: ModuleFilter) => void;
  /** A new order (all keys) after a drag: the page switches to the custom order. */
  onReorder: (keys: ModuleKeyString[]) => void;
  /** Scroll the page to this module's card. */
  onShow: (key: ModuleKeyString) => void;
}

/**
 * The page's modules (part 2 §2 header: module filter panel and draggable module list): filter the
 * cards by text or state, reorder them by dragging a row (pointer, or Space and arrows on the grip),
 * click a row to scroll to its card.
 */
export function ModulesPanel({ modules, shown, filter, onFilter, onReorder, onShow }: ModulesPanelProps) {
  const keys = modules.map((m) => moduleKey(m.dto));
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const labels = new Map(modules.map((m) => [moduleKey(m.dto), m.dto.moduleLabel]));
  const accessibility = moduleOrderAccessibility((k) => labels.get(k), (k) => keys.indexOf(k), () => keys.length);
  const onDragEnd = (e: DragEndEvent) => {
    if (!e.over || e.active.id === e.over.id) return;
    onReorder(arrayMove(keys, keys.indexOf(String(e.active.id)), keys.indexOf(String(e.over.id))));
  };
  return (
    <Stack gap={6} h="100%">
      <Group justify="space-between">
        <Text fz="xs" fw={700} tt="uppercase" lts={0.6} c="dimmed">
          Modules
        </Text>
        <Text fz={11} c="dimmed" data-testid="modules-shown">
          {shown.size} of {modules.length} shown
        </Text>
      </Group>
      <TextInput size="xs" placeholder="Filter by name or label" leftSection={<IconSearch size={13} />} value={filter.text} onChange={(e) => onFilter({ ...filter, text: e.currentTarget.value })} aria-label="Filter modules" />
      <SegmentedControl
        size="xs"
        fullWidth
        value={filter.status}
        onChange={(v) => onFilter({ ...filter, status: v as ModuleFilter['status'] })}
        data={[
          { value: 'all', label: 'All' },
          { value: 'WIP', label: 'WIP' },
          { value: 'SUBMITTED', label: 'Submitted' },
          { value: 'unsaved', label: 'Unsaved' },
        ]}
        aria-label="Module state"
      />
      <Text fz={10} c="dimmed">
        Drag a row to reorder the page; click it to go to the module.
      </Text>
      <div className={classes.list} data-testid="modules-list">
        <DndContext accessibility={accessibility} sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={keys} strategy={verticalListSortingStrategy}>
            {modules.map((m) => (
              <ModuleRow key={moduleKey(m.dto)} module={m} hidden={!shown.has(moduleKey(m.dto))} onShow={onShow} />
            ))}
          </SortableContext>
        </DndContext>
      </div>
    </Stack>
  );
}

function ModuleRow({ module: m, hidden, onShow }: { module: EditorModule; hidden: boolean; onShow: (key: ModuleKeyString) => void }) {
  const key = moduleKey(m.dto);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: key });
  const { mh, el } = activeCounts(m.products);
  return (
    <div
      ref={setNodeRef}
      className={classes.row}
      data-hidden={hidden || undefined}
      data-dragging={isDragging || undefined}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="modules-row"
      data-module={m.dto.moduleName}
    >
      <button type="button" ref={setActivatorNodeRef} className={classes.grip} aria-label={`Move ${m.dto.moduleName}`} {...attributes} {...listeners}>
        <IconGripVertical size={14} />
      </button>
      <button type="button" className={classes.main} onClick={() => onShow(key)} title={hidden ? 'Hidden by the filter: click to show it' : 'Go to the module'}>
        <span className={classes.label}>
          {m.dto.moduleLabel}
          {hasChanges(m) && <span className={classes.dot} aria-label="Unsaved changes" />}
        </span>
        <span className={classes.meta}>
          {m.dto.moduleName} · MH {mh} · EL {el}
        </span>
      </button>
      <Badge size="xs" variant="light" color={moduleStatusColor(m.dto.status)}>
        {statusLabel(m.dto.status)}
      </Badge>
    </div>
  );
}
