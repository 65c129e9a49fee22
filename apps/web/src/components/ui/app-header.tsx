import { Group, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { BrandMark } from './brand-mark';
import { UserMenu } from './user-menu';

export function AppHeader() {
  return (
    <Group h="100%" px="lg" justify="space-between" wrap="nowrap">
      <UnstyledButton component={Link} to={paths.home.path} title="Home">
        <BrandMark />
      </UnstyledButton>
      <UserMenu />
    </Group>
  );
}
