import { Badge, Button, Group, List, Modal, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { type MassiveEditResult, itemInMonth, notAuthorizedText } from '@bo/shared/massive-edit';
import { itemKind, OUTCOME_COLORS, PREVIEW_OUTCOME_LABELS, renumberRow } from '../logic/result-lines';

export interface PreviewModalProps {
  preview: { result: MassiveEditResult; rowNumbers: number[] } | null;
  onClose: () => void;
  onSave: () => void;
  /** Offered when the table may publish. */
  onSavePublish?: () => void;
}

/**
 * What Save would do, computed by the server with dryRun (nothing written): counts, then per row its
 * outcome and, per item and month, the changes or why it would fail. The planner closes it or saves.
 */
export function PreviewModal({ preview, onClose, onSave, onSavePublish }: PreviewModalProps) {
  const result = preview?.result;
  const refused = result ? notAuthorizedText(itemKind(result.type), result.notAuthorizedItems).split(';').filter(Boolean) : [];
  return (
    <Modal opened={!!result} onClose={onClose} centered radius="lg" size="xl" title={<Text fw={700}>Preview: nothing is saved yet</Text>} data-testid="massive-edit-preview">
      {result && preview && (
        <Stack gap="md">
          <Group gap="xs" data-testid="massive-edit-preview-counts">
            <Badge color="teal" variant="light">
              {result.counts.applied} would change
            </Badge>
            <Badge color="gray" variant="light">
              {result.counts.unchanged} unchanged
            </Badge>
            <Badge color="red" variant="light">
              {result.counts.failed} would fail
            </Badge>
          </Group>
          <ScrollArea.Autosize mah="58dvh" type="auto" offsetScrollbars>
            <Stack gap="sm">
              {refused.map((line) => (
                <Text key={line} fz="sm" c="red">
                  {line}
                </Text>
              ))}
              {result.rows.map((row) => (
                <Paper key={row.row} withBorder radius="md" p="sm" data-testid="massive-edit-preview-row">
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Badge color={OUTCOME_COLORS[row.outcome]} variant="light" style={{ flexShrink: 0 }}>
                      {PREVIEW_OUTCOME_LABELS[row.outcome]}
                    </Badge>
                    <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                      {renumberRow(row.message, preview.rowNumbers)}
                    </Text>
                  </Group>
                  {row.items.length > 0 && (
                    <Stack gap={6} mt="xs" pl="xs">
                      {row.items.map((item) => (
                        <div key={`${item.itemKey}|${item.monthId}`}>
                          <Text fz="sm" fw={600} c={item.outcome === 'failed' ? 'red' : undefined}>
                            {item.label !== item.itemKey ? `${item.label} · ` : ''}
                            {itemInMonth(item.itemKey, item.monthId)}
                          </Text>
                          {item.outcome === 'failed' ? (
                            <Text fz="sm" c="red" pl="sm">
                              {item.reason ?? 'It would fail.'}
                            </Text>
                          ) : item.changes.length > 0 ? (
                            <List size="sm" pl="sm" spacing={0}>
                              {item.changes.map((change, i) => (
                                <List.Item key={i}>{change}</List.Item>
                              ))}
                            </List>
                          ) : (
                            <Text fz="sm" c="dimmed" pl="sm">
                              Nothing to change
                            </Text>
                          )}
                        </div>
                      ))}
                    </Stack>
                  )}
                </Paper>
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button onClick={onSave} data-testid="massive-edit-preview-save">
              Save All
            </Button>
            {onSavePublish && (
              <Button variant="light" onClick={onSavePublish}>
                Save &amp; Publish All
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
