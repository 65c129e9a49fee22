import { Button, Drawer, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconHistory, IconRestore } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { formatMonthId } from '@/lib/format';
import { historyPageQueryOptions, versionQueryOptions, type VersionSource } from '../api/version-queries';
import { failureText, VersionList } from './version-list';

const CURRENT = 'current';

/** The History drawer of a module card or a cluster block: its title names the item; the body mounts only while open. */
export function HistoryDrawer({ opened, onClose, label, itemKey, monthId, children }: { opened: boolean; onClose: () => void; label: string; itemKey: string; monthId: string; children: ReactNode }) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={760}
      title={
        <Group gap={8}>
          <IconHistory size={18} />
          <Title order={4}>History</Title>
          <Text fz="sm" c="dimmed">
            {label} ({itemKey}, {formatMonthId(monthId)})
          </Text>
        </Group>
      }
    >
      {opened && children}
    </Drawer>
  );
}

/**
 * The state of a History panel, the same for both kinds: the page of versions, the version picked (left) and what
 * it is compared with (right): the item on screen (`current`) or another version.
 */
export function useVersionBrowser<Content, Detail extends { content: Content }>(source: VersionSource<Detail>, current: Content) {
  const [pageNumber, setPageNumber] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const [against, setAgainst] = useState<string>(CURRENT);

  const history = useQuery(historyPageQueryOptions(source, pageNumber));
  const left = useQuery(versionQueryOptions(source, selected));
  const otherVersion = against === CURRENT ? null : Number(against);
  const right = useQuery(versionQueryOptions(source, otherVersion));
  const rightContent: Content | undefined = otherVersion === null ? current : right.data?.content;

  return {
    history,
    setPageNumber,
    selected,
    select: (n: number) => {
      setSelected(n);
      if (against === String(n)) setAgainst(CURRENT);
    },
    against,
    setAgainst,
    left,
    right,
    otherVersion,
    rightContent,
  };
}

type VersionBrowserState<Content, Detail extends { content: Content }> = ReturnType<typeof useVersionBrowser<Content, Detail>>;

/**
 * The History panel's frame, the same for both kinds: the version list, the hint, "Compare version n with", "Restore
 * this version", the failure and loading texts, the one-line summary; `children` is the kind's own comparison.
 */
export function VersionBrowser<Content, Detail extends { content: Content }>({
  browser,
  onScreenLabel,
  readOnlyTitle,
  canRestore,
  restoring,
  onRestore,
  summary,
  children,
}: {
  browser: VersionBrowserState<Content, Detail>;
  /** 'The composition on screen' / 'The cluster on screen'. */
  onScreenLabel: string;
  readOnlyTitle: string;
  canRestore: boolean;
  restoring: boolean;
  onRestore: (detail: Detail) => void;
  /** The comparison's one-line summary, null while it is not ready. */
  summary: string | null;
  children: ReactNode;
}) {
  const { history, selected, left, right, otherVersion } = browser;
  const entries = history.data?.content ?? [];
  const againstOptions = [{ value: CURRENT, label: onScreenLabel }, ...entries.filter((e) => e.version !== selected).map((e) => ({ value: String(e.version), label: `Version ${e.version}` }))];
  return (
    <Stack gap="md" data-testid="history-panel">
      <VersionList page={history.data} loading={history.isFetching} error={history.isError ? failureText(history.error) : null} selected={selected} onSelect={browser.select} onPage={browser.setPageNumber} />
      {selected === null ? (
        entries.length > 0 && (
          <Text fz="sm" c="dimmed">
            Pick a version to compare it with {onScreenLabel.charAt(0).toLowerCase() + onScreenLabel.slice(1)} or with another version.
          </Text>
        )
      ) : (
        <Stack gap="xs" data-testid="version-compare">
          <Group justify="space-between" align="flex-end">
            <Select
              size="xs"
              w={260}
              label={`Compare version ${selected} with`}
              data={againstOptions}
              value={browser.against}
              onChange={(v) => browser.setAgainst(v ?? CURRENT)}
              allowDeselect={false}
              data-testid="compare-with"
            />
            <Button
              size="xs"
              leftSection={<IconRestore size={14} />}
              disabled={!canRestore || !left.data}
              loading={restoring}
              onClick={() => left.data && onRestore(left.data)}
              title={canRestore ? undefined : readOnlyTitle}
              data-testid="restore-version"
            >
              Restore this version
            </Button>
          </Group>
          {left.isError || right.isError ? (
            <Text c="red.9" fz="sm">
              {failureText(left.error ?? right.error)}
            </Text>
          ) : summary === null ? (
            <Text fz="sm" c="dimmed">
              Loading…
            </Text>
          ) : (
            <>
              <Text fz="sm" fw={600} data-testid="compare-summary">
                From version {selected} to {otherVersion === null ? 'the screen' : `version ${otherVersion}`}: {summary}
              </Text>
              {children}
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}
