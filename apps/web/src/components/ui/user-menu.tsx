import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconExternalLink, IconLayoutDashboard, IconLogout } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useFrontOfficeUrl } from '@/lib/client-config';
import { logout, useSession } from '@/lib/session';

function displayName(user: { firstName: string; lastName: string; username: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

/** The header's hover menu (spec part 1 §2): Frontoffice (only when the server names one), BackOffice, Logout. */
export function UserMenu() {
  const user = useSession((s) => s.user);
  const frontOfficeUrl = useFrontOfficeUrl();
  if (!user) return null;
  const name = displayName(user);

  return (
    <Menu trigger="click-hover" openDelay={50} closeDelay={150} position="bottom-end" width={230} shadow="md" radius="md" withinPortal>
      <Menu.Target>
        <UnstyledButton data-testid="user-menu" px={8} py={6} style={{ borderRadius: 8 }}>
          <Group gap={10} wrap="nowrap">
            <Avatar radius="xl" size={34} color="brand" variant="filled">
              {initials(name)}
            </Avatar>
            <div style={{ lineHeight: 1.2 }}>
              <Text fz="sm" fw={600} data-testid="user-name">
                {name}
              </Text>
              <Text fz="xs" c="dimmed">
                {user.email || user.username}
              </Text>
            </div>
            <IconChevronDown size={16} stroke={1.8} color="var(--mantine-color-dimmed)" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {/* No Menu.Label: a role="menu" holds menu items only (axe aria-required-children). */}
        {frontOfficeUrl && (
          <Menu.Item component="a" href={frontOfficeUrl} leftSection={<IconExternalLink size={16} />} data-testid="menu-frontoffice">
            Frontoffice
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={paths.home.path} leftSection={<IconLayoutDashboard size={16} />}>
          BackOffice
        </Menu.Item>
        <Menu.Divider role="separator" />
        <Menu.Item color="red.9" leftSection={<IconLogout size={16} />} onClick={() => logout('user')}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
