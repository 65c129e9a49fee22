import { Center, Loader } from '@mantine/core';

/** Shown while the session is being confirmed or the grants load. */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="100dvh" aria-busy="true" aria-label={label}>
      <Loader size="md" type="dots" />
    </Center>
  );
}
