import { ActionIcon, Button, Group, Stack, Text } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { formatMonthId } from '@/lib/format';
import { type Release, RELEASE_TEXTS, type ReleaseStatus, type Visibility } from '@bo/shared/releases';
import { IconLock, IconLockOpen, IconPlus, IconSend } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { DataTableColumn } from '@/components/ui/data-table';
import { flash } from '@/components/ui/flash';
import { StatusBadge } from '@/components/ui/status-badge';
import { TablePanel } from '@/components/ui/table-panel';
import { SegmentFilter } from '@/components/ui/table-toolbar';
import { formatDate, formatDateTime } from '@/lib/format';
import { useChangeReleaseStatus } from '../api/change-release-status';
import { useReleases } from '../api/get-releases';
import { usePublishRelease } from '../api/publish-release';
import { usePublishReleaseViewer } from '../api/publish-release-viewer';
import { CreateReleaseDialog } from './create-release-dialog';
import { ReleaseMonths } from './release-months';

type StatusFilter = 'all' | ReleaseStatus;
const STATUS_OPTIONS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'OPEN', label: 'OPEN' },
  { value: 'CLOSED', label: 'CLOSED' },
];

type Action = 'close' | 're-open' | 'publish' | 'publishViewer';
interface PendingAction {
  action: Action;
  release: Release;
}

function monthSpan(release: Release): string {
  const first = release.months[0];
  const last = release.months.at(-1);
  if (!first || !last) return '—';
  return `${formatMonthId(first.monthId)} – ${formatMonthId(last.monthId)}`;
}

function confirmation({ action, release }: PendingAction) {
  const n = release.months.length;
  const months = `${n} planning ${n === 1 ? 'month' : 'months'}`;
  switch (action) {
    case 'close':
      return {
        title: 'Close release',
        message: RELEASE_TEXTS.closeQuestion(release.releaseId),
        details: `Its ${months} close with it: their modules and clusters become read-only for everyone and are no longer offered as copy destinations.`,
        color: 'red',
        done: `The release ${release.releaseId} has been closed`,
      };
    case 're-open':
      return {
        title: 'Re-open release',
        message: RELEASE_TEXTS.reopenQuestion(release.releaseId),
        details: `Its ${months} open again for planning.`,
        color: undefined,
        done: `The release ${release.releaseId} has been re-opened`,
      };
    case 'publish':
      return {
        title: 'Publish to front office',
        message: `Are you sure you want to publish the release ${release.releaseId} to the front office?`,
        details: 'Publishing cannot be undone.',
        color: undefined,
        done: `The release ${release.releaseId} has been published to the front office`,
      };
    case 'publishViewer':
      return {
        title: 'Publish to viewers',
        message: `Are you sure you want to publish the release ${release.releaseId} to viewers?`,
        details: 'Publishing cannot be undone.',
        color: undefined,
        done: `The release ${release.releaseId} has been published to viewers`,
      };
  }
}

function VisibilityCell({ visibility, date, target, onPublish, testId }: { visibility: Visibility; date: string | null; target: string; onPublish: () => void; testId: string }) {
  const published = visibility === 'PUBLISHED';
  return (
    <Group gap="sm" wrap="nowrap">
      <DisabledReason reason={published && `Already published to ${target}`} label={`Publish to ${target}`}>
        <ActionIcon variant="light" size="md" onClick={onPublish} aria-label={`Publish to ${target}`} data-testid={testId}>
          <IconSend size={15} />
        </ActionIcon>
      </DisabledReason>
      <Stack gap={2}>
        <StatusBadge status={visibility} size="sm" />
        {published && (
          <Text fz="xs" c="dimmed" title={formatDateTime(date)}>
            {formatDate(date)}
          </Text>
        )}
      </Stack>
    </Group>
  );
}

/** Manage Releases (part 1 §2, §4): status filter, create, close / re-open, publish to front office and viewers. */
export function ReleasesTable() {
  const releases = useReleases();
  const changeStatus = useChangeReleaseStatus();
  const publish = usePublishRelease();
  const publishViewer = usePublishReleaseViewer();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [creating, setCreating] = useState(false);

  const all = useMemo(() => releases.data ?? [], [releases.data]);
  const openRelease = all.find((r) => r.status === 'OPEN');
  const rows = useMemo(() => all.filter((r) => status === 'all' || r.status === status), [all, status]);
  const busy = changeStatus.isPending || publish.isPending || publishViewer.isPending;

  const confirm = () => {
    if (!pending) return;
    const { action, release } = pending;
    const text = confirmation(pending);
    const done = { onSuccess: () => flash(text.done, 'success'), onSettled: () => setPending(null) };
    if (action === 'close' || action === 're-open') changeStatus.mutate({ releaseId: release.releaseId, action }, done);
    else if (action === 'publish') publish.mutate({ releaseId: release.releaseId }, done);
    else publishViewer.mutate({ releaseId: release.releaseId }, done);
  };

  const columns: DataTableColumn<Release>[] = [
    { key: 'releaseId', header: 'Release', width: 120, render: (r) => <Text fw={600}>{r.releaseId}</Text> },
    { key: 'created', header: 'Created', width: 120, render: (r) => <Text fz="sm">{formatDate(r.creationDate)}</Text> },
    { key: 'status', header: 'Status', width: 110, render: (r) => <StatusBadge status={r.status} /> },
    {
      key: 'months',
      header: 'Planning months',
      render: (r) => (
        <div>
          <Text fz="sm" ff="monospace">
            {monthSpan(r)}
          </Text>
          <Text fz="xs" c="dimmed">
            {r.months.length} months · {r.months.filter((m) => m.open).length} open
          </Text>
        </div>
      ),
    },
    {
      key: 'fo',
      header: 'Front office',
      width: 180,
      render: (r) => (
        <VisibilityCell
          visibility={r.foVisibility}
          date={r.foPublicationDate}
          target="the front office"
          onPublish={() => setPending({ action: 'publish', release: r })}
          testId={`publish-fo-${r.releaseId}`}
        />
      ),
    },
    {
      key: 'viewer',
      header: 'Viewers',
      width: 180,
      render: (r) => (
        <VisibilityCell
          visibility={r.viewerVisibility}
          date={r.viewerPublicationDate}
          target="viewers"
          onPublish={() => setPending({ action: 'publishViewer', release: r })}
          testId={`publish-viewer-${r.releaseId}`}
        />
      ),
    },
    {
      key: 'actions',
      header: '',
      width: 130,
      align: 'right',
      render: (r) => {
        if (r.status === 'OPEN') {
          return (
            <Button size="xs" variant="light" color="red" leftSection={<IconLock size={14} />} onClick={() => setPending({ action: 'close', release: r })} data-testid={`close-${r.releaseId}`}>
              Close
            </Button>
          );
        }
        const blockedBy = openRelease && openRelease.releaseId !== r.releaseId ? openRelease.releaseId : null;
        return (
          <DisabledReason reason={blockedBy !== null && RELEASE_TEXTS.otherOpen(blockedBy)}>
            <Button size="xs" variant="light" leftSection={<IconLockOpen size={14} />} onClick={() => setPending({ action: 're-open', release: r })} data-testid={`reopen-${r.releaseId}`}>
              Re Open
            </Button>
          </DisabledReason>
        );
      },
    },
  ];

  const createButton = (
    <DisabledReason reason={openRelease ? RELEASE_TEXTS.openExists : !releases.data && 'Loading the releases…'}>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="create-release">
        Create new release
      </Button>
    </DisabledReason>
  );
  const text = pending ? confirmation(pending) : null;

  return (
    <TablePanel
      actions={createButton}
      filters={
        <>
          <SegmentFilter value={status} onChange={setStatus} options={STATUS_OPTIONS} label="Status" />
          {openRelease && (
            <Text fz="sm" c="dimmed">
              Open release: <b>{openRelease.releaseId}</b>
            </Text>
          )}
        </>
      }
      table={{
        label: 'Releases',
        data: rows,
        columns,
        getRowKey: (r) => r.releaseId,
        loading: releases.isPending,
        resetPageKey: status,
        emptyMessage: all.length ? 'No releases match the filter.' : 'There are no releases yet.',
        renderExpanded: (r) => <ReleaseMonths release={r} />,
        rowTestId: (r) => `release-row-${r.releaseId}`,
      }}
    >
      <ConfirmDialog
        opened={pending !== null}
        title={text?.title}
        message={text?.message}
        details={text?.details}
        confirmColor={text?.color}
        loading={busy}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      />
      <CreateReleaseDialog opened={creating} releases={all} onClose={() => setCreating(false)} />
    </TablePanel>
  );
}
