import { type Announcements, type ScreenReaderInstructions, useDraggable, useDroppable } from '@dnd-kit/core';
import { jumpBetweenAreas } from '@/components/editor/keyboard-dnd';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { CSS } from '@dnd-kit/utilities';
import { focusAfterMove, useFocusAfterMove } from '@/components/ui/focus-after-move';
import { Box, Paper, Text } from '@mantine/core';
import type { DragData, DropData, DragSource, DropZone } from '../logic/drop-rules';
import classes from './dnd.module.css';

/** A chip's place-independent name: the same module in a cluster and in its bin (or in 'all' and its bin). */
const chipToken = (data: DragData) => (data.source === 'search' ? null : `${data.key ?? 'all'}::${data.module.moduleName}`);

export function Draggable({ id, data, disabled, children }: { id: string; data: DragData; disabled?: boolean; children: React.ReactNode }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id, data, disabled });
  // Remove / Restore moves the chip to the other list: the new chip takes the focus back (keyboard users stay put).
  const token = chipToken(data);
  const setRef = useFocusAfterMove(token, setNodeRef);
  return (
    <Box
      ref={setRef}
      className={classes.draggable}
      onClickCapture={(e: React.MouseEvent) => {
        if (token && (e.target as HTMLElement).closest('[data-chip-action]')) focusAfterMove(token);
      }}
      style={{ transform: CSS.Translate.toString(transform), opacity: isDragging ? 0.4 : 1, cursor: disabled ? 'default' : 'grab', touchAction: 'none' }}
      {...attributes}
      {...listeners}
      // A group, not dnd-kit's role="button": the tile holds buttons of its own (a button may hold none).
      role="group"
      aria-roledescription="draggable module"
      aria-label={`${data.module.moduleLabel} (${data.module.moduleName})`}
    >
      {children}
    </Box>
  );
}

/** A drop area that lights up while a module hovers it. */
export function DropArea({
  id,
  data,
  disabled,
  label,
  empty,
  tone = 'default',
  children,
  testId,
}: {
  id: string;
  data: DropData;
  disabled?: boolean;
  label?: string;
  empty?: string;
  tone?: 'default' | 'bin';
  children?: React.ReactNode;
  testId?: string;
}) {
  const { setNodeRef, isOver, active } = useDroppable({ id, data, disabled });
  const highlight = isOver && !disabled;
  return (
    <Paper
      ref={setNodeRef}
      data-testid={testId}
      aria-label={label}
      role="region"
      p="xs"
      radius="md"
      withBorder
      bg={highlight ? 'brand.0' : tone === 'bin' ? 'gray.0' : 'white'}
      style={{
        borderStyle: active && !disabled ? 'dashed' : 'solid',
        borderColor: highlight ? 'var(--mantine-color-brand-5)' : undefined,
        minHeight: tone === 'bin' ? 44 : 64,
        transition: 'background-color 120ms, border-color 120ms',
      }}
    >
      {children}
      {empty ? (
        <Text fz="xs" c="dimmed" ta="center" py={4}>
          {empty}
        </Text>
      ) : null}
    </Paper>
  );
}

const isDrag = (d: unknown): d is DragData => !!d && typeof d === 'object' && 'module' in d && 'source' in d;
const isDrop = (d: unknown): d is DropData => !!d && typeof d === 'object' && 'zone' in d;

/**
 * What dnd-kit's live region says while a module is dragged on the cluster page (issue 34): the module by its
 * label and the place by the cluster's label and month ('Aurora Optical Best Sellers 01 picked up from the
 * modules of North Stores 11/2026', '… moved to …', '… dropped in …', 'Moving cancelled …'), never dnd-kit's ids.
 * `clusterName` gives a cluster key's label and month; it is read when spoken.
 */
export function clusterDragAccessibility(clusterName: (key: string) => string | undefined): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  let started: DragData | null = null;
  // dnd-kit reports the start's own area as 'over' right after the pick-up: said once, not twice.
  let lastOver: string | null = null;
  const cluster = (key?: string) => (key && clusterName(key)) || 'the cluster';
  const place = (where: DragSource | DropZone, key?: string) => {
    switch (where) {
      case 'search':
        return 'the module search';
      case 'cluster':
        return `the modules of ${cluster(key)}`;
      case 'bin':
        return `the removed modules of ${cluster(key)}`;
      case 'all':
        return `${CLUSTER_EDITOR_TEXTS.addToAll} (every open cluster)`;
      case 'allBin':
        return 'the modules removed from all clusters';
    }
  };
  const moduleOf = (data: unknown) => (isDrag(data) ? data : started)?.module.moduleLabel ?? 'The module';
  const to = (data: unknown) => (isDrop(data) ? place(data.zone, data.key) : null);
  return {
    screenReaderInstructions: {
      draggable:
        'To pick up a module, press Space or Enter. While it is picked up, the arrow keys move it over the clusters, their removed modules and the Add to all clusters area; press Space or Enter to drop it there, or Escape to cancel.',
    },
    announcements: {
      onDragStart: ({ active }) => {
        started = isDrag(active.data.current) ? active.data.current : null;
        lastOver = started ? `${started.source}|${started.key ?? ''}` : null;
        return started ? `${started.module.moduleLabel} picked up from ${place(started.source, started.key)}.` : undefined;
      },
      onDragOver: ({ active, over }) => {
        const data = over?.data.current;
        const at = isDrop(data) ? `${data.zone}|${data.key ?? ''}` : 'none';
        if (at === lastOver) return undefined;
        lastOver = at;
        const where = to(data);
        return where ? `${moduleOf(active.data.current)} moved to ${where}.` : `${moduleOf(active.data.current)} is no longer over an area.`;
      },
      onDragEnd: ({ active, over }) => {
        const where = to(over?.data.current);
        const text = where ? `${moduleOf(active.data.current)} dropped in ${where}.` : `${moduleOf(active.data.current)} dropped outside the areas: nothing changed.`;
        started = null;
        return text;
      },
      onDragCancel: ({ active }) => {
        const from = isDrag(active.data.current) ? active.data.current : started;
        started = null;
        return from ? `Moving cancelled. ${from.module.moduleLabel} stays in ${place(from.source, from.key)}.` : 'Moving cancelled.';
      },
    },
  };
}

/** Keyboard dragging jumps from drop area to drop area in reading order (a cluster's modules, its removed modules, the next cluster …, Add to all clusters and its bin). */
export const jumpBetweenDropAreas = jumpBetweenAreas((areas) => areas.sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left));
