import { Button, Checkbox, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { compareMonthIds } from '@bo/shared/months';
import { formatMonthId } from '@/lib/format';
import { getClusterMonths } from '../api/get-cluster-months';

/** Choose destination months (open months but the cluster's own), then Save or Save & Publish. */
export function CopyDialog({
  opened,
  clusters,
  canSave,
  canSavePublish,
  onClose,
  onCopy,
}: {
  opened: boolean;
  clusters: { clusterId: string; monthId: string }[];
  canSave: boolean;
  canSavePublish: boolean;
  onClose: () => void;
  onCopy: (months: string[], toPublish: boolean) => void;
}) {
  const [months, setMonths] = useState<string[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!opened || clusters.length === 0) return;
    setMonths(null);
    setChosen([]);
    setError(null);
    // Months every cluster may be copied to.
    Promise.all(clusters.map((c) => getClusterMonths(c.clusterId, c.monthId)))
      .then((lists) => setMonths(lists.reduce((acc, l) => acc.filter((m) => l.includes(m))).sort(compareMonthIds)))
      .catch((e: Error) => setError(e.message || 'Failed to fetch cluster months'));
  }, [opened, clusters]);

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>Copy {clusters.length === 1 ? 'cluster' : 'clusters'} to other months</Text>} centered>
      <Stack gap="sm">
        <Text fz="sm">{clusters.map((c) => c.clusterId).join(', ')}</Text>
        {error ? (
          <Text c="red.9" fz="sm">
            {error}
          </Text>
        ) : months === null ? (
          <Loader size="sm" />
        ) : months.length === 0 ? (
          <Text fz="sm" data-testid="no-months">
            {CLUSTER_EDITOR_TEXTS.noAvailableMonths}
          </Text>
        ) : (
          <Checkbox.Group value={chosen} onChange={setChosen} label="Destination months">
            <Group gap="sm" mt={6}>
              {months.map((m) => (
                <Checkbox key={m} value={m} label={formatMonthId(m)} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!canSave || chosen.length === 0} onClick={() => onCopy(chosen, false)}>
            Save
          </Button>
          <Button color="teal" disabled={!canSavePublish || chosen.length === 0} onClick={() => onCopy(chosen, true)}>
            Save &amp; Publish
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
