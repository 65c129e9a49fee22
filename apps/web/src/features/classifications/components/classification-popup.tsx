import { ActionIcon, Badge, Button, Group, Loader, Modal, ScrollArea, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { canManageClassifications, type Classification } from '@bo/shared/classifications';
import { classificationLabelError, LIMITS, MESSAGES } from '@bo/shared/validation';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { createClassification } from '../api/create-classification';
import { deleteClassification } from '../api/delete-classification';
import { classificationsQueryOptions, useClassifications } from '../api/get-classifications';

/**
 * The Client Classification List popup (part 2 §2, §5): list (searchable, 15 characters), create
 * (A-Z, 0-9, _ and -, at most 15; Create is disabled while empty or wrong) and delete. Failures show
 * the server's text with an Ok button.
 */
export function ClassificationPopup({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const grants = useSession((s) => s.grants) ?? [];
  const mayManage = canManageClassifications(grants);
  const queryClient = useQueryClient();
  const list = useClassifications(opened);
  const [search, setSearch] = useState('');
  const [label, setLabel] = useState('');
  const [triedEmpty, setTriedEmpty] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setSearch('');
      setLabel('');
      setTriedEmpty(false);
    }
  }, [opened]);

  const error = label ? classificationLabelError(label) : triedEmpty ? MESSAGES.classificationEmpty : null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: classificationsQueryOptions().queryKey });

  const create = async () => {
    if (!label) {
      setTriedEmpty(true);
      return;
    }
    if (classificationLabelError(label)) return;
    setBusy(true);
    try {
      const created = await createClassification(label);
      flash(`The client classification ${created.classificationLabel} has been created`);
      setLabel('');
      setTriedEmpty(false);
      await refresh();
    } catch (e) {
      showMessagePopup('Error', e instanceof ApiError ? e.message : 'Unable to create the client classification');
    } finally {
      setBusy(false);
    }
  };

  const remove = async (c: Classification) => {
    try {
      const deleted = await confirmDialog({
        title: `Delete the client classification ${c.classificationLabel}?`,
        // A carried one is a change of each cluster (server: docs/DECISIONS.md "Deleting a client classification"); a
        // refusal names the clusters in the server's text, one per line, in the Ok popup below.
        message:
          c.clusterCount > 0
            ? `It is used by ${c.clusterCount} cluster(s): each of them will lose it, as a change recorded in its history. If you may not change one of them now, nothing is deleted.`
            : 'No cluster uses it.',
        confirmLabel: 'Delete',
        cancelLabel: 'Cancel',
        confirmColor: 'red',
        action: () => deleteClassification(c.classificationId),
      });
      if (!deleted) return;
      flash(`The client classification ${c.classificationLabel} has been deleted`);
      await refresh();
    } catch (e) {
      showMessagePopup('Error', e instanceof ApiError ? e.message : 'Unable to delete the client classification');
    }
  };


  const rows = (list.data ?? []).filter((c) => c.classificationLabel.toLowerCase().includes(search.trim().toLowerCase()));

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>Client Classification List</Text>} size="lg" radius="lg" centered data-testid="classification-popup">
      <Stack gap="md">
        {mayManage && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void create();
            }}
          >
            <Group align="flex-start" gap="xs">
              <TextInput
                style={{ flex: 1 }}
                label="New client classification"
                placeholder="e.g. TOP_DOOR"
                value={label}
                onChange={(e) => {
                  setLabel(e.currentTarget.value);
                  setTriedEmpty(false);
                }}
                onKeyDown={(e) => {
                  // Create is disabled while empty, so Enter would not submit: say what is missing.
                  if (e.key === 'Enter' && !label) {
                    e.preventDefault();
                    setTriedEmpty(true);
                  }
                }}
                error={error}
                description={`${label.length} / ${LIMITS.classificationLabel}`}
                data-testid="classification-label"
              />
              <DisabledReason reason={!busy && (!label ? 'Type a label first' : classificationLabelError(label))}>
                <Button type="submit" mt={25} leftSection={<IconPlus size={14} />} loading={busy} data-testid="create-classification">
                  Create
                </Button>
              </DisabledReason>
            </Group>
          </form>
        )}
        <TextInput
          placeholder="Search a classification"
          leftSection={<IconSearch size={14} />}
          value={search}
          maxLength={LIMITS.classificationLabel}
          onChange={(e) => setSearch(e.currentTarget.value)}
          aria-label="Search a classification"
        />
        {list.isLoading ? (
          <Group justify="center" py="lg">
            <Loader size="sm" />
          </Group>
        ) : (
          <ScrollArea.Autosize mah={360} type="auto">
            <Table striped highlightOnHover verticalSpacing={6} data-testid="classification-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Classification</Table.Th>
                  <Table.Th w={120}>Clusters</Table.Th>
                  {mayManage && <Table.Th w={50} />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => (
                  <Table.Tr key={c.classificationId}>
                    <Table.Td ff="monospace" fz="sm">
                      {c.classificationLabel}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="gray" radius="sm">
                        {c.clusterCount}
                      </Badge>
                    </Table.Td>
                    {mayManage && (
                      <Table.Td>
                        <Tooltip label="Delete" withArrow>
                          <ActionIcon variant="subtle" color="red" onClick={() => void remove(c)} aria-label={`Delete ${c.classificationLabel}`}>
                            <IconTrash size={15} />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
                {rows.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={3}>
                      <Text c="dimmed" fz="sm" ta="center">
                        No Data Available
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Modal>
  );
}
