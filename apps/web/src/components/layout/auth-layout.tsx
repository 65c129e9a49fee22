import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import { AlertBar } from '@/components/ui/alert-bar';
import { BrandMark } from '@/components/ui/brand-mark';
import { PRODUCT_NAME } from '@/config/app';

/** The public pages' frame: the product's mark above a centred card. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: React.ReactNode }) {
  return (
    <Box
      mih="100dvh"
      style={{
        background:
          'radial-gradient(1200px 600px at 10% -10%, var(--mantine-color-brand-1), transparent 60%),' +
          'radial-gradient(900px 500px at 110% 110%, var(--mantine-color-brand-0), transparent 60%),' +
          'var(--mantine-color-gray-0)',
      }}
    >
      <Center mih="100dvh" p="md">
        <Stack w="100%" maw={420} gap="xl">
          <Center>
            <BrandMark size="lg" />
          </Center>
          <AlertBar />
          <Paper withBorder shadow="lg" radius="lg" p={36}>
            <Stack gap={4} mb="lg">
              <Text component="h1" fz={22} fw={700} m={0}>
                {title}
              </Text>
              <Text c="dimmed" fz="sm">
                {subtitle}
              </Text>
            </Stack>
            {children}
          </Paper>
          <Text ta="center" fz="xs" c="dimmed">
            {PRODUCT_NAME} · for internal use only
          </Text>
        </Stack>
      </Center>
    </Box>
  );
}
