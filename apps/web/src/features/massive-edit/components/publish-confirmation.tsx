import { Alert, Badge, Box, Group, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { VERSION_TEXTS } from '@bo/shared/item-versions';
import { countsSummary, itemInMonth, type MassiveEditResult, shortPublishReason } from '@bo/shared/massive-edit';
import { PUBLISH_PARTS_SEPARATOR } from '@/lib/publish-diff-summary';
import type { RequestRow } from '../logic/draft-rows';
import { publishLines } from '../logic/publish-lines';
import { usePublishPreview, type MassiveEditTarget } from '../api/massive-edit-calls';

/** Lines drawn at most; the rest is "and N more" (the server diffs the first PUBLISH_DIFF_MAX_ITEMS). */
const MAX_PUBLISH_LINES = 100;

const PUBLISH_CONFIRMATION_TEXTS = {
  heading: 'What publishing changes',
  legend: 'Per item: against its last published version · against the previous month’s',
  loading: 'Comparing with the published versions…',
  failed: 'The changes could not be computed; publishing is still possible.',
  nothing: 'As the items are now, no row changes anything: nothing would be published.',
  more: (n: number) => `and ${n} more`,
  notPublishedHeading: 'Saved but NOT published',
  notPublishedLegend: 'These rows will be saved; publishing them is refused for the reason given (the Result says what happened).',
} as const;

/** The rows the preview says would be saved but not published: one line per row, each item-month with its reason. */
export function notPublishedLines(result: MassiveEditResult, rowNumbers: readonly number[]): { key: string; text: string }[] {
  return result.rows.flatMap((row) => {
    const items = row.items.filter((i) => i.outcome === 'applied' && i.published === false);
    if (items.length === 0) return [];
    const number = rowNumbers[row.row - 1] ?? row.row;
    const parts = items.slice(0, 10).map((i) => `${itemInMonth(i.itemKey, i.monthId)}: ${shortPublishReason(i.publishError ?? 'not sent')}`);
    return [{ key: String(row.row), text: `Row ${number}: ${parts.join(', ')}${items.length > 10 ? ` and ${items.length - 10} more` : ''}` }];
  });
}

/**
 * Save & Publish All's confirmation (issue 18): the question, then per item-month the rows would change, one line
 * of what publishing it changes against its last published version and the previous month's. The server computes
 * it from the content the item will have once the rows apply (the preview with toPublish: docs/MASSIVE-EDIT.md).
 */
export function PublishConfirmation({ question, rows, rowNumbers, target }: { question: string; rows: RequestRow[]; rowNumbers: readonly number[]; target: MassiveEditTarget }) {
  const preview = usePublishPreview(target, rows);
  const diff = preview.data?.publishDiff;
  const lines = diff ? publishLines(diff) : [];
  const shown = lines.slice(0, MAX_PUBLISH_LINES);
  const more = diff ? diff.total - shown.length : 0;
  const notPublished = preview.data ? notPublishedLines(preview.data, rowNumbers) : [];
  return (
    <Stack gap="sm" data-testid="massive-edit-publish-confirmation">
      <Text fz="sm">{question}</Text>
      {preview.data && (
        <Text fz="sm" fw={600} data-testid="massive-edit-publish-counts">
          {countsSummary(preview.data.counts, preview.data)}
        </Text>
      )}
      {notPublished.length > 0 && (
        <Alert color="orange" variant="light" p="xs" title={PUBLISH_CONFIRMATION_TEXTS.notPublishedHeading} data-testid="massive-edit-not-published">
          <Stack gap={2}>
            {notPublished.map((line) => (
              <Text key={line.key} fz="sm" data-testid="massive-edit-not-published-line" style={{ overflowWrap: 'anywhere' }}>
                {line.text}
              </Text>
            ))}
            <Text fz="xs" c="dimmed">
              {PUBLISH_CONFIRMATION_TEXTS.notPublishedLegend}
            </Text>
          </Stack>
        </Alert>
      )}
      <Box data-testid="massive-edit-publish-diff">
        <Group justify="space-between" gap="xs" mb={4}>
          <Text fz="xs" fw={700} c="dimmed" tt="uppercase">
            {PUBLISH_CONFIRMATION_TEXTS.heading}
          </Text>
          {diff && diff.total > 0 && (
            <Badge variant="light" color="gray" size="sm">
              {diff.total} {diff.total === 1 ? 'item' : 'items'}
            </Badge>
          )}
        </Group>
        {preview.isLoading ? (
          <Group gap={6}>
            <Loader size="xs" />
            <Text fz="xs" c="dimmed">
              {PUBLISH_CONFIRMATION_TEXTS.loading}
            </Text>
          </Group>
        ) : preview.isError || !diff ? (
          <Text fz="xs" c="var(--bo-warning-text)" data-testid="massive-edit-publish-diff-failed">
            {PUBLISH_CONFIRMATION_TEXTS.failed}
          </Text>
        ) : lines.length === 0 ? (
          <Text fz="xs" c="dimmed">
            {PUBLISH_CONFIRMATION_TEXTS.nothing}
          </Text>
        ) : (
          <Paper withBorder radius="md">
            <ScrollArea.Autosize mah={280} type="auto" offsetScrollbars="y">
              <Stack gap={0}>
                {shown.map((line, i) => (
                  <Box
                    key={line.key}
                    px="sm"
                    py={6}
                    style={i > 0 ? { borderTop: '1px solid var(--mantine-color-gray-2)' } : undefined}
                    data-testid="massive-edit-publish-line"
                  >
                    <Text fz="sm" fw={600} truncate="end">
                      {line.name}
                    </Text>
                    <Text fz="xs" data-testid="massive-edit-publish-summary">
                      {line.parts.map((part, j) => (
                        <Fragment key={j}>
                          {j > 0 && (
                            <Text span fz="xs" c="dimmed">
                              {PUBLISH_PARTS_SEPARATOR}
                            </Text>
                          )}
                          {part.label ? (
                            <>
                              <Text span fz="xs" c="dimmed">
                                {part.label}:
                              </Text>{' '}
                              <Text span fz="xs" fw={600} c={part.text === VERSION_TEXTS.noChange ? 'dimmed' : undefined}>
                                {part.text}
                              </Text>
                            </>
                          ) : (
                            <Text span fz="xs" c={j === 0 ? 'blue.8' : 'dimmed'} fs={j === 0 ? undefined : 'italic'}>
                              {part.text}
                            </Text>
                          )}
                        </Fragment>
                      ))}
                    </Text>
                  </Box>
                ))}
              </Stack>
              {more > 0 && (
                <Text fz="xs" c="dimmed" px="sm" py={6} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }} data-testid="massive-edit-publish-more">
                  {PUBLISH_CONFIRMATION_TEXTS.more(more)}
                </Text>
              )}
            </ScrollArea.Autosize>
          </Paper>
        )}
        {lines.length > 0 && (
          <Text fz="xs" c="dimmed" mt={4}>
            {PUBLISH_CONFIRMATION_TEXTS.legend}
          </Text>
        )}
      </Box>
    </Stack>
  );
}
