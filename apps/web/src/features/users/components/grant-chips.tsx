import { Chip, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { PermissionType } from '@bo/shared/grants';
import { type GrantRowLike, isViewLocked } from '@bo/shared/user-grants';
import type { GrantType } from '@bo/shared/users';
import { IconLock } from '@tabler/icons-react';

export interface GrantOption {
  code: string;
  /** What the code stands for, shown on hover. */
  description: string;
}

export interface GrantChipsProps {
  title: string;
  grantType: GrantType;
  level: PermissionType;
  options: readonly GrantOption[];
  rows: readonly GrantRowLike[];
  disabled?: boolean;
  onSet: (codes: readonly string[], on: boolean) => void;
}

const held = (rows: readonly GrantRowLike[], grantType: GrantType, level: PermissionType, code: string) =>
  rows.some((r) => r.grantType === grantType && r.permissionType === level && r.grantCode === code);

/**
 * One type of grant (brands, stars zones or rules) at one level, as chips, led by an ALL chip that
 * selects or clears them all (part 1 §6). A view chip that edit or submit needs is locked on.
 */
export function GrantChips({ title, grantType, level, options, rows, disabled = false, onSet }: GrantChipsProps) {
  const codes = options.map((o) => o.code);
  const checkedCount = codes.filter((c) => held(rows, grantType, level, c)).length;
  const all = codes.length > 0 && checkedCount === codes.length;
  const locked = (code: string) => level === 'view' && isViewLocked(rows, grantType, code);

  return (
    <Stack gap={8} data-testid={`grants-${level}-${grantType}`}>
      <Group gap={6}>
        <Text fz="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: 0.6 }}>
          {title}
        </Text>
        <Text fz="xs" c="dimmed">
          {checkedCount}/{codes.length}
        </Text>
      </Group>
      <Group gap={8}>
        <Chip
          checked={all}
          onChange={() => onSet(codes, !all)}
          disabled={disabled || codes.length === 0}
          variant="filled"
          color="brand"
          size="sm"
          data-testid={`chip-${level}-${grantType}-ALL`}
        >
          ALL
        </Chip>
        {options.map((o) => {
          const isLocked = locked(o.code);
          const chip = (
            <Chip
              checked={held(rows, grantType, level, o.code)}
              onChange={(on) => onSet([o.code], on)}
              // A locked chip stays checked-looking: clicking it does nothing (setGrant keeps it).
              disabled={disabled}
              variant="outline"
              style={isLocked ? { cursor: 'not-allowed' } : undefined}
              data-locked={isLocked || undefined}
              size="sm"
              icon={isLocked ? <IconLock size={12} /> : undefined}
              data-testid={`chip-${level}-${grantType}-${o.code}`}
            >
              {o.code}
            </Chip>
          );
          return (
            <Tooltip
              key={o.code}
              label={isLocked ? `${o.description}: needed by edit or submit` : o.description}
              openDelay={300}
              withArrow
            >
              <span>{chip}</span>
            </Tooltip>
          );
        })}
      </Group>
    </Stack>
  );
}
