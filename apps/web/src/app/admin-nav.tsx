import { Button, Group } from '@mantine/core';
import { IconCalendarEvent, IconTags, IconUsers } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '@/config/paths';

const SECTIONS = [
  { path: paths.manageUser.path, label: 'Users', icon: IconUsers },
  { path: paths.manageBrand.path, label: 'Brands', icon: IconTags },
  { path: paths.manageRelease.path, label: 'Releases', icon: IconCalendarEvent },
] as const;

/** Moves between the three administration screens (the home sidebar links to each of them too). */
export function AdminNav() {
  const { pathname } = useLocation();
  return (
    <Group gap={4} component="nav" aria-label="Administration">
      {SECTIONS.map(({ path, label, icon: Icon }) => {
        const active = pathname === path;
        return (
          <Button
            key={path}
            component={Link}
            to={path}
            size="sm"
            variant={active ? 'light' : 'subtle'}
            color={active ? 'brand' : 'gray'}
            leftSection={<Icon size={16} stroke={1.7} />}
            aria-current={active ? 'page' : undefined}
          >
            {label}
          </Button>
        );
      })}
    </Group>
  );
}
