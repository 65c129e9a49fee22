import { Badge, type BadgeProps, type MantineColor } from '@mantine/core';
import { statusLabel } from '@/lib/format';

/** The colour each known status reads in, by upper-cased status; anything else is grey. */
export const STATUS_COLORS: Readonly<Record<string, MantineColor>> = {
  // releases and publication
  OPEN: 'teal',
  CLOSED: 'gray',
  PUBLISHED: 'teal',
  UNPUBLISHED: 'gray',
  // users
  ENABLED: 'teal',
  DISABLED: 'red',
  NEW: 'blue',
  // items
  WIP: 'yellow',
  SUBMIT_IN_PROGRESS: 'orange',
  SUBMITTED: 'teal',
  DELETION_PENDING: 'orange',
  READY_TO_BE_DELETED: 'red',
  DELETION_IN_PROGRESS: 'red',
  DELETED: 'red',
  DELETION_ERROR: 'red',
  // jobs and uploads
  DONE: 'teal',
  ERROR: 'red',
  FAILED: 'red',
  RUNNING: 'blue',
  QUEUED: 'gray',
};

export interface StatusBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  status: string;
  /** Overrides the colour of STATUS_COLORS. */
  color?: MantineColor;
  /** Overrides the text (default: the status with underscores read as spaces). */
  label?: React.ReactNode;
}

/** A status as a small coloured pill with a dot: 'OPEN', 'SUBMIT IN PROGRESS', 'Enabled' … */
export function StatusBadge({ status, color, label, variant = 'light', size = 'md', ...rest }: StatusBadgeProps) {
  return (
    <Badge
      variant={variant}
      size={size}
      radius="sm"
      color={color ?? STATUS_COLORS[status.toUpperCase()] ?? 'gray'}
      leftSection={<span aria-hidden style={{ width: 6, height: 6, borderRadius: 3, background: 'currentColor', display: 'inline-block' }} />}
      tt="none"
      fw={600}
      data-status={status}
      // Never shortened to 'CLOS…' by a narrow table column.
      miw="max-content"
      {...rest}
    >
      {label ?? statusLabel(status)}
    </Badge>
  );
}
