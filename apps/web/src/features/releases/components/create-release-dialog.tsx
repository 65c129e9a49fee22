import { Alert, Modal, Stack, Text, TextInput } from '@mantine/core';
import { FormActions } from '@/components/ui/form-actions';
import { addMonths, compareMonthIds, toMonthId } from '@bo/shared/months';
import { formatMonthId } from '@/lib/format';
import { type Release, RELEASE_MONTH_COUNT, RELEASE_TEXTS, releaseIdSchema } from '@bo/shared/releases';
import { IconAlertTriangle, IconCalendarPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { flash } from '@/components/ui/flash';
import { useCreateRelease } from '../api/create-release';

/** The months a new release opens, as the server computes them: the ones after the last release month. */
export function nextReleaseMonths(releases: readonly Release[], now = new Date()): string[] {
  const last = releases
    .flatMap((r) => r.months.map((m) => m.monthId))
    .sort(compareMonthIds)
    .at(-1);
  const first = last ? addMonths(last, 1) : toMonthId(now.getUTCFullYear(), now.getUTCMonth() + 1);
  return Array.from({ length: RELEASE_MONTH_COUNT }, (_, i) => addMonths(first, i));
}

export function CreateReleaseDialog({ opened, releases, onClose }: { opened: boolean; releases: readonly Release[]; onClose: () => void }) {
  const [releaseId, setReleaseId] = useState('');
  const create = useCreateRelease();
  const parsed = releaseIdSchema.safeParse(releaseId);
  const exists = parsed.success && releases.some((r) => r.releaseId.toLowerCase() === parsed.data.toLowerCase());
  const error = releaseId === '' ? undefined : !parsed.success ? parsed.error.issues[0]?.message : exists ? RELEASE_TEXTS.exists(parsed.data) : undefined;
  const monthList = nextReleaseMonths(releases);

  const close = () => {
    setReleaseId('');
    create.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success || exists) return;
    create.mutate(
      { releaseId: parsed.data },
      {
        onSuccess: (release) => {
          flash(`The release ${release.releaseId} has been created`, 'success');
          close();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title={<Text fw={650} fz="lg">Create new release</Text>} centered radius="lg" size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Release id"
            placeholder="e.g. R2028"
            value={releaseId}
            onChange={(e) => {
              setReleaseId(e.currentTarget.value.trim());
              create.reset();
            }}
            error={error}
            maxLength={20}
            data-autofocus
            data-testid="new-release-id"
          />
          <Alert variant="light" color="brand" icon={<IconCalendarPlus size={18} />}>
            <Text fz="sm">
              The new release opens {RELEASE_MONTH_COUNT} planning months:{' '}
              <Text span fw={600} fz="sm">
                {formatMonthId(monthList[0]!)} – {formatMonthId(monthList.at(-1)!)}
              </Text>
              .
            </Text>
          </Alert>
          {create.isError && (
            <Alert variant="light" color="red" icon={<IconAlertTriangle size={18} />}>
              {create.error.message}
            </Alert>
          )}
          <FormActions gap="sm" onCancel={close} busy={create.isPending} submitLabel="Create" reason={exists ? 'This release already exists' : !parsed.success && 'Type a valid release id first'} />
        </Stack>
      </form>
    </Modal>
  );
}
