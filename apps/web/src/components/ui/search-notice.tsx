import { Alert, Group, Loader, Paper, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Where a search of a work area stands (Pending, Disco/Removed, Statistics). */
export type SearchState = 'idle' | 'loading' | 'tooMany' | 'failed' | 'done';

/**
 * What a result panel shows instead of its results: the prompt before a search, the loader, the spec's
 * 413 texts, a failure, or the empty text after a search that found nothing; null when there are
 * results to show. Test ids: `<testId>-idle`, `-loading`, `-too-many`, `-empty`.
 */
export function SearchNotice({
  state,
  empty,
  testId,
  idle,
  emptyText,
  tooMany,
}: {
  state: SearchState;
  /** The search found nothing (read when `state` is 'done'). */
  empty: boolean;
  testId: string;
  idle: ReactNode;
  emptyText: string;
  /** The 413 title and hint (part 2 §8): 'The search returned too many elements' / 'Change the filters and search again'. */
  tooMany?: { title: string; hint: string };
}): ReactNode {
  if (state === 'loading') {
    return (
      <Group justify="center" p="xl">
        <Loader data-testid={`${testId}-loading`} />
      </Group>
    );
  }
  if (state === 'tooMany' && tooMany) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={tooMany.title} data-testid={`${testId}-too-many`}>
        {tooMany.hint}
      </Alert>
    );
  }
  const notice = (text: ReactNode, color: string, id?: string) => (
    <Paper withBorder radius="lg" p="xl" ta="center">
      <Text c={color} data-testid={id}>
        {text}
      </Text>
    </Paper>
  );
  if (state === 'idle') return notice(idle, 'dimmed', `${testId}-idle`);
  if (state === 'failed' || state === 'tooMany') return notice('The search failed. Try again.', 'red');
  return empty ? notice(emptyText, 'dimmed', `${testId}-empty`) : null;
}
