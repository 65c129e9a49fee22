import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconEyeglass2 } from '@tabler/icons-react';
import { PRODUCT_NAME } from '@/config/app';

/** The product's logo and name, as the header and the login page show them. */
export function BrandMark({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg';
  return (
    <Group gap={large ? 'sm' : 10} wrap="nowrap">
      <ThemeIcon size={large ? 48 : 34} radius="md" variant="gradient" gradient={{ from: 'brand.7', to: 'brand.5', deg: 135 }}>
        <IconEyeglass2 size={large ? 30 : 22} stroke={1.7} />
      </ThemeIcon>
      <div>
        <Text fw={700} fz={large ? 22 : 17} lh={1.15} c="dark.8">
          {PRODUCT_NAME}
        </Text>
        <Text fz={large ? 'sm' : 11} c="dimmed" lh={1.3} tt={large ? undefined : 'uppercase'} lts={large ? undefined : 0.6}>
          Assortment personalization tool
        </Text>
      </div>
    </Group>
  );
}
