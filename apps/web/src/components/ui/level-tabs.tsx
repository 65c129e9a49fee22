import { Badge, Tabs, type TabsProps } from '@mantine/core';
import { PERMISSION_TYPES, type PermissionType } from '@bo/shared/grants';

export const LEVEL_LABELS: Record<PermissionType, string> = { view: 'View', edit: 'Edit', submit: 'Submit' };

/**
 * The View / Edit / Submit tabs of a permission popup (brand and user permissions), each with a badge
 * counting what is held at that level; `children` are the panels, if any.
 */
export function LevelTabs({
  level,
  onLevelChange,
  count,
  tabTestId,
  countTestId,
  roundSmallCounts = false,
  children,
  ...tabs
}: {
  level: PermissionType;
  onLevelChange: (level: PermissionType) => void;
  count: (at: PermissionType) => number;
  tabTestId: (at: PermissionType) => string;
  countTestId?: (at: PermissionType) => string;
  /** A round badge while the count has one digit. */
  roundSmallCounts?: boolean;
  children?: React.ReactNode;
} & Omit<TabsProps, 'value' | 'onChange' | 'children'>) {
  return (
    <Tabs value={level} onChange={(v) => onLevelChange((v as PermissionType) ?? 'view')} variant="outline" radius="md" {...tabs}>
      <Tabs.List>
        {PERMISSION_TYPES.map((at) => (
          <Tabs.Tab
            key={at}
            value={at}
            rightSection={
              <Badge size="xs" variant="light" color={count(at) ? 'brand' : 'gray'} circle={roundSmallCounts ? count(at) < 10 : undefined} data-testid={countTestId?.(at)}>
                {count(at)}
              </Badge>
            }
            data-testid={tabTestId(at)}
          >
            {LEVEL_LABELS[at]}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {children}
    </Tabs>
  );
}
