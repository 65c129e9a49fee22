import { useDraggable, useDroppable } from '@dnd-kit/core';
import { CSS } from '@dnd-kit/utilities';
import { Box, Paper, Text } from '@mantine/core';
import type { DragData, DropData } from '../logic/drop-rules';

export function Draggable({ id, data, disabled, children }: { id: string; data: DragData; disabled?: boolean; children: React.ReactNode }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id, data, disabled });
  return (
    <Box
      ref={setNodeRef}
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
