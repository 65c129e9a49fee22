import { Alert, Button, Group, Loader, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { PagedSelect } from '@/components/ui/paged-select';
import { ApiError } from '@/lib/api-error';
import { formatMonthId } from '@/lib/format';
import { deleteClusters } from '../api/delete-clusters';
import { deleteModules } from '../api/delete-modules';
import { deleteMonthsQueryOptions, type DeletableKind } from '../api/get-delete-months';
import { HOME_RESULTS_KEY } from '../api/home-results';

const DELETE_TEXTS = {
  searchedMonth: 'SELECT THE SEARCHED MONTH',
  moduleFailed: 'Failed to delete modules.',
  clusterFailed: 'Failed to delete clusters.',
  moduleMonthsFailed: (name: string) => `Failed to fetch months for module ${name}`,
  clusterMonthsFailed: 'Failed to fetch cluster months',
} as const;

export interface DeletableItem {
  /** moduleName or clusterId */
  key: string;
  label: string;
}

/**
 * Deleting modules or clusters from home: each item needs a start month among the months it may be
 * deleted from (GET …/months?purpose=delete); Confirm waits until every item has one. 'SELECT THE
 * SEARCHED MONTH' puts the home's month where it is available.
 */
export function DeleteItemsModal({
  kind,
  items,
  searchedMonth,
  opened,
  onClose,
  onDeleted,
}: {
  kind: DeletableKind;
  items: readonly DeletableItem[];
  searchedMonth: string | null;
  opened: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [startMonth, setStartMonth] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) setStartMonth({});
  }, [opened, items]);

  const months = useQueries({
    queries: items.map((item) => deleteMonthsQueryOptions(kind, item.key, opened)),
  });

  const allChosen = items.length > 0 && items.every((item) => !!startMonth[item.key]);
  const anyHasSearched = !!searchedMonth && months.some((m) => m.data?.includes(searchedMonth));
  const noun = kind === 'module' ? 'module' : 'cluster';

  const applySearchedMonth = () => {
    if (!searchedMonth) return;
    const next = { ...startMonth };
    items.forEach((item, i) => {
      if (months[i]?.data?.includes(searchedMonth)) next[item.key] = searchedMonth;
    });
    setStartMonth(next);
  };

  const confirm = async () => {
    setBusy(true);
    try {
      const answer =
        kind === 'module'
          ? await deleteModules(items.map((i) => ({ moduleName: i.key, monthId: startMonth[i.key]! })))
          : await deleteClusters(items.map((i) => ({ clusterId: i.key, monthId: startMonth[i.key]! })));
      if (answer.deleted.length) {
        flash(
          answer.deleted.length === 1
            ? `The ${noun} ${answer.deleted[0]!.key} is deleted from ${formatMonthId(answer.deleted[0]!.monthIdFrom)} on`
            : `${answer.deleted.length} ${noun}s are deleted from their start months on`,
        );
      }
      const problems = [
        ...answer.notAuthorized.map((key) => `You don't have authorization to delete the ${noun} ${key}.`),
        ...answer.errors.map((e) => e.message),
      ];
      if (problems.length) showMessagePopup('Attention!', problems, 'orange');
      await queryClient.invalidateQueries({ queryKey: HOME_RESULTS_KEY });
      onDeleted();
    } catch (error) {
      const fallback = kind === 'module' ? DELETE_TEXTS.moduleFailed : DELETE_TEXTS.clusterFailed;
      showMessagePopup('Error!', error instanceof ApiError && error.message ? error.message : fallback);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={busy ? () => undefined : onClose} title={<Text fw={700}>Delete {items.length === 1 ? `the ${noun}` : `${items.length} ${noun}s`}</Text>} size="lg" radius="lg" centered data-testid="delete-modal">
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Choose for each {noun} the month from which it is deleted: that month and the later ones are marked for deletion and can be restored
          from the Deletion Area until they are removed.
        </Text>
        <Group justify="flex-end">
          <DisabledReason reason={!anyHasSearched && `No ${noun} here can be deleted from the searched month`}>
            <Button variant="light" size="xs" onClick={applySearchedMonth} data-testid="select-searched-month">
              {DELETE_TEXTS.searchedMonth}
            </Button>
          </DisabledReason>
        </Group>
        <ScrollArea.Autosize mah={360} type="auto">
          <Table verticalSpacing="xs" striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{kind === 'module' ? 'Module' : 'Cluster'}</Table.Th>
                <Table.Th w={220}>Start month</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item, i) => {
                const query = months[i];
                const failedText =
                  query?.error instanceof ApiError && query.error.message
                    ? query.error.message
                    : kind === 'module'
                      ? DELETE_TEXTS.moduleMonthsFailed(item.key)
                      : DELETE_TEXTS.clusterMonthsFailed;
                return (
                  <Table.Tr key={item.key} data-testid="delete-row">
                    <Table.Td>
                      <Text fz="sm" fw={600}>
                        {item.label}
                      </Text>
                      <Text fz="xs" c="dimmed" ff="monospace">
                        {item.key}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {query?.isLoading ? (
                        <Loader size="xs" />
                      ) : query?.isError ? (
                        <Text fz="xs" c="red">
                          {failedText}
                        </Text>
                      ) : (
                        <PagedSelect
                          aria-label={`Start month of ${item.key}`}
                          placeholder="Choose a month"
                          data={(query?.data ?? []).map((m) => ({ value: m, label: formatMonthId(m) }))}
                          showValues={false}
                          value={startMonth[item.key] ?? null}
                          onChange={(value) => setStartMonth((s) => ({ ...s, [item.key]: value }))}
                          data-testid="start-month"
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {!allChosen && (
          <Alert variant="light" color="gray" icon={<IconAlertCircle size={16} />} py={6}>
            <Text fz="xs">Choose a start month for every {noun} to confirm.</Text>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <DisabledReason reason={!allChosen && !busy && `Choose a start month for every ${noun} first`}>
            <Button color="red" onClick={confirm} loading={busy} data-testid="confirm-delete">
              Confirm
            </Button>
          </DisabledReason>
        </Group>
      </Stack>
    </Modal>
  );
}
