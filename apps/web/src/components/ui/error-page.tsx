import { Button, Center, Code, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Last line of defence: a screen that crashed shows this instead of a blank page. */
export function ErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <Center h="100dvh" p="md">
      <Stack align="center" gap="sm" maw={520}>
        <ThemeIcon size={56} radius="xl" variant="light" color="red">
          <IconAlertTriangle size={28} />
        </ThemeIcon>
        <Title order={3}>Something went wrong</Title>
        <Text c="dimmed" ta="center">
          The page could not be displayed. Reload it to try again; if the problem persists, contact
          support.
        </Text>
        {detail && <Code>{detail}</Code>}
        <Button mt="sm" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Stack>
    </Center>
  );
}
