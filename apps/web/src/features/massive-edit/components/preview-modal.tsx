import { itemKeyString } from '@bo/shared/item-keys';
import { Badge, Button, Group, List, Modal, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { type MassiveEditResult, type MassiveEditRowResult, itemInMonth, notAuthorizedText } from '@bo/shared/massive-edit';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { rowDigest } from '../logic/row-digest';
import { itemKind, OUTCOME_COLORS, PREVIEW_OUTCOME_LABELS, renumberRow } from '../logic/result-lines';

export interface PreviewModalProps {
  preview: { result: MassiveEditResult; rowNumbers: number[] } | null;
  onClose: () => void;
  onSave: () => void;
  /** Offered when the table may publish. */
  onSavePublish?: () => void;
  /** Why Save All may not be used (every row would fail …); null when it may. */
  saveReason?: string | null;
}

const rowsText = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;

/** A classification row in one line: its clusters and months (above), then what changes and what fails. */
function DigestLines({ row }: { row: MassiveEditRowResult }) {
  const d = rowDigest(row);
  return (
    <Stack gap={2} mt={6} pl="xs" data-testid="massive-edit-preview-digest">
      {d.changes.length > 0 && <Text fz="sm">{d.changes.join(' · ')}</Text>}
      {d.unchanged > 0 && d.changes.length === 0 && (
        <Text fz="sm" c="dimmed">
          Nothing to change
        </Text>
      )}
      {d.failures.map((f) => (
        <Text key={f} fz="sm" c="red.8">
          {f}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * What Save would do, computed by the server with dryRun (nothing written): counts, then per row its
 * outcome and, per item and month, the changes or why it would fail. The planner closes it or saves.
 */
export function PreviewModal({ preview, onClose, onSave, onSavePublish, saveReason = null }: PreviewModalProps) {
  const result = preview?.result;
  // Classification rows change every open month of their clusters alike: one line per row, not a block per month.
  const oneLine = result?.type === 'classification';
  const refused = result ? notAuthorizedText(itemKind(result.type), result.notAuthorizedItems).split(';').filter(Boolean) : [];
  return (
    <Modal opened={!!result} onClose={onClose} centered radius="lg" size="xl" title={<Text fw={700}>Preview: nothing is saved yet</Text>} data-testid="massive-edit-preview">
      {result && preview && (
        <Stack gap="md">
          {/* Counters of rows (each row once), as the Result popup counts them. */}
          <Group gap="xs" data-testid="massive-edit-preview-counts">
            <Badge color={result.counts.saved ? 'teal' : 'gray'} variant="light">
              {rowsText(result.counts.saved)} would save
            </Badge>
            {result.counts.partial > 0 && (
              <Badge color="orange" variant="light">
                {rowsText(result.counts.partial)} would partly save
              </Badge>
            )}
            <Badge color="gray" variant="light">
              {rowsText(result.counts.unchanged)} unchanged
            </Badge>
            <Badge color={result.counts.failed ? 'red' : 'gray'} variant="light">
              {rowsText(result.counts.failed)} would fail
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
                      {oneLine ? `Row ${preview.rowNumbers[row.row - 1] ?? row.row}: ${rowDigest(row).items} ${rowDigest(row).months}` : renumberRow(row.message, preview.rowNumbers)}
                    </Text>
                  </Group>
                  {row.items.length > 0 && oneLine && <DigestLines row={row} />}
                  {row.items.length > 0 && !oneLine && (
                    <Stack gap={6} mt="xs" pl="xs">
                      {row.items.map((item) => (
                        <div key={itemKeyString(item)}>
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
            <DisabledReason reason={saveReason}>
              <Button onClick={onSave} data-testid="massive-edit-preview-save">
                Save All
              </Button>
            </DisabledReason>
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
