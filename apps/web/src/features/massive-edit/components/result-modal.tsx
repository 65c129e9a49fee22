import { Badge, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { countsSummary, MASSIVE_EDIT_TEXTS, type MassiveEditResult } from '@bo/shared/massive-edit';
import { countBadges, resultLines } from '../logic/result-lines';

/**
 * The Result popup (part 2 §4): one line per row coloured by its outcome, then the items the user may not change;
 * `note` first when there is something to say about the whole edit (every item refused: nothing ran).
 */
export function ResultModal({ result, rowNumbers, note, onClose }: { result: MassiveEditResult | null; rowNumbers: readonly number[]; note?: string; onClose: () => void }) {
  const lines = result ? resultLines(result, rowNumbers) : [];
  return (
    <Modal
      opened={!!result}
      onClose={onClose}
      centered
      radius="lg"
      size="xl"
      title={<Text fw={700}>{MASSIVE_EDIT_TEXTS.resultTitle}</Text>}
      data-testid="massive-edit-result"
    >
      {result && (
        <Stack gap="md">
          {note && (
            <Text fz="sm" fw={600} c="red" data-testid="massive-edit-result-note">
              {note}
            </Text>
          )}
          <Text fz="sm" fw={600} data-testid="massive-edit-result-summary">
            {countsSummary(result.counts, result)}
          </Text>
          <Group gap="xs" data-testid="massive-edit-result-counts">
            {countBadges(result).map((b) => (
              <Badge key={b.key} color={b.color} variant="light" data-testid={`massive-edit-count-${b.key}`} data-color={b.color}>
                {b.text}
              </Badge>
            ))}
          </Group>
          <ScrollArea.Autosize mah="60dvh" type="auto">
            <Stack gap={4} data-testid="massive-edit-result-lines">
              {lines.map((line, i) => (
                <Text key={i} fz="sm" c={line.color === 'gray' ? 'dimmed' : line.color} style={{ overflowWrap: 'anywhere' }}>
                  {line.text}
                </Text>
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="massive-edit-result-close">
              Close
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
