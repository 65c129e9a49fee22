import { Modal, Progress, Stack, Text } from '@mantine/core';

/** The progress popup (part 2 §4): a percentage bar fed by the job polls; it cannot be closed while the job runs. */
export function ProgressModal({ opened, value, toPublish }: { opened: boolean; value: number; toPublish: boolean }) {
  const percent = Math.round(value);
  return (
    <Modal
      opened={opened}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      radius="lg"
      size="md"
      title={<Text fw={650}>{toPublish ? 'Saving and publishing…' : 'Saving…'}</Text>}
      data-testid="massive-edit-progress"
    >
      <Stack gap="xs">
        <Progress value={percent} size="xl" radius="xl" striped animated={percent < 100} aria-label="Massive edit progress" />
        <Text fz="sm" ta="center" fw={600} data-testid="massive-edit-progress-value">
          {percent}%
        </Text>
        <Text fz="xs" c="dimmed" ta="center">
          The rows are applied one by one; the result follows when all are done.
        </Text>
      </Stack>
    </Modal>
  );
}
