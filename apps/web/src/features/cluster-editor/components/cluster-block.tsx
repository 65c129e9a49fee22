import { ActionIcon, Badge, Group, MultiSelect, Paper, SimpleGrid, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { IconHistory, IconLock } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { CLUSTER_EDITOR_TEXTS, parseRangeFacing, REFRESH_RED_ABOVE, type ClusterPercentage } from '@bo/shared/cluster-editor';
import type { ClusterDto } from '@bo/shared/clusters';
import { statusLabel } from '@bo/shared/statuses';
import { NotPublishedBadge } from '@/components/editor/publish-outcome';
import { LockBanner } from '@/components/editor/lock-banner';
import type { ItemNotice } from '@/components/editor/live-item-notices';
import { LiveItemNotice } from '@/components/editor/live-item-notice';
import { PresenceList } from '@/components/live/presence-list';
import { LIMITS, MESSAGES } from '@bo/shared/validation';
import { formatInteger, formatMonthId } from '@/lib/format';
import { byFamily, type EditorModule } from '../logic/composition';
import { Draggable, DropArea } from './dnd';
import { ModuleChip } from './module-chip';

export interface ClusterBlockProps {
  clusterKey: string;
  cluster: ClusterDto;
  modules: EditorModule[];
  description: string;
  lias: string[];
  classifications: number[];
  classificationOptions: { classificationId: number; classificationLabel: string }[];
  readOnly: string | null;
  /** Another user holding the lock (the header names them, with Unlock or Ask to unlock). */
  lockedBy: string | null;
  /** Admin, or an edit right on the cluster: may force the unlock. */
  canUnlock: boolean;
  onUnlock: () => Promise<void>;
  changed: boolean;
  rangeFacing: string | null;
  percentage: ClusterPercentage | undefined;
  onRemove: (moduleName: string) => void;
  onRestore: (module: EditorModule) => void;
  onDescription: (value: string) => void;
  onLias: (codes: string[]) => void;
  onClassifications: (ids: number[]) => void;
  /** Opens the cluster's History panel (versions, comparison, restore); absent without one. */
  onHistory?: () => void;
  /** Live notices (issue 36): lock lost, released by the other user, newer version saved. */
  notice?: ItemNotice | undefined;
  /** Whether the user could edit the cluster if its lock were free ('Edit it now' only for them). */
  mayEdit: boolean;
  onEditNow: () => Promise<void>;
  onReload: () => Promise<void>;
}

const statusColor = (status: string) => (status === 'SUBMITTED' ? 'teal' : status === 'SUBMIT_IN_PROGRESS' ? 'grape' : 'blue');

function Stat({ label, value, red, testId }: { label: string; value: React.ReactNode; red?: boolean; testId?: string }) {
  return (
    <div>
      <Text fz={11} c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" fw={700} c={red ? 'red.9' : undefined} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** One cluster of the editor (part 2 §2): title, status, description, modules by family, bin and footer. */
export function ClusterBlock(props: ClusterBlockProps) {
  const { cluster, clusterKey, modules, readOnly, percentage } = props;
  const [classSearch, setClassSearch] = useState('');
  const presenceItem = useMemo(() => ({ kind: 'cluster' as const, name: cluster.clusterId, monthId: cluster.monthId }), [cluster.clusterId, cluster.monthId]);
  const added = modules.filter((m) => m.clusterCompositionStatus === 'ADDED');
  const removed = modules.filter((m) => m.clusterCompositionStatus === 'REMOVED');
  const editable = readOnly === null;
  const range = parseRangeFacing(props.rangeFacing);
  const totalSku = percentage?.totalSku ?? cluster.totalSku;
  const totalMh = percentage?.totalMh ?? 0;
  const refresh = percentage?.percentageRefresh ?? null;

  return (
    <Paper withBorder radius="md" p="md" shadow="xs" data-testid="cluster-block" data-cluster={cluster.clusterId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Title order={4}>{cluster.clusterLabel}</Title>
              {props.changed ? (
                <Badge size="xs" color="yellow" variant="filled">
                  unsaved
                </Badge>
              ) : null}
            </Group>
            <Text fz="xs" c="dimmed">
              {cluster.clusterId} · {formatMonthId(cluster.monthId)} · {cluster.brandCode} {cluster.collection} · {cluster.country.join(', ')}
            </Text>
          </div>
          <Group gap={6} wrap="nowrap">
            {cluster.legoMonth ? (
              <Badge color="yellow" variant="filled" data-testid="lego-badge">
                LEGO
              </Badge>
            ) : null}
            <Badge color={statusColor(cluster.status)} variant="light" data-testid="cluster-status">
              {statusLabel(cluster.status)}
            </Badge>
            <NotPublishedBadge name={cluster.clusterId} status={cluster.status} rpasErrors={cluster.rpasErrors} />
            {props.onHistory ? (
              <Tooltip label="History">
                <ActionIcon variant="light" onClick={props.onHistory} aria-label="History" data-testid="cluster-history">
                  <IconHistory size={16} />
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
        </Group>

        <PresenceList item={presenceItem} what={`the cluster ${cluster.clusterLabel}`} />
        <LiveItemNotice kind="cluster" notice={props.notice} dirty={props.changed} canEdit={props.mayEdit} onEdit={props.onEditNow} onReload={props.onReload} />
        {props.lockedBy && !props.notice?.released ? (
          <LockBanner owner={props.lockedBy} type="cluster" item={`${cluster.clusterLabel} (${cluster.clusterId}, ${formatMonthId(cluster.monthId)})`} canUnlock={props.canUnlock} onUnlock={props.onUnlock} />
        ) : null}
        {readOnly && !(props.lockedBy && readOnly === CLUSTER_EDITOR_TEXTS.lockedBy(props.lockedBy)) ? (
          <Group gap={6} c="var(--bo-warning-text)" data-testid="read-only-reason">
            <IconLock size={14} />
            <Text fz="xs" fw={600}>
              {readOnly}
            </Text>
          </Group>
        ) : null}

        <Textarea
          placeholder={CLUSTER_EDITOR_TEXTS.descriptionPlaceholder}
          aria-label={`Description of ${cluster.clusterId}`}
          value={props.description}
          maxLength={LIMITS.description}
          autosize
          minRows={1}
          maxRows={3}
          disabled={!editable}
          onChange={(e) => props.onDescription(e.currentTarget.value.slice(0, LIMITS.description))}
          rightSection={
            <Text fz={10} c="dimmed">
              {props.description.length}/{LIMITS.description}
            </Text>
          }
          rightSectionWidth={48}
        />

        <DropArea
          id={`cluster:${clusterKey}`}
          data={{ zone: 'cluster', key: clusterKey }}
          disabled={!editable}
          label={`Modules of ${cluster.clusterId}`}
          testId="cluster-modules"
          empty={added.length === 0 ? 'Drag modules here' : undefined}
        >
          <Stack gap="xs">
            {byFamily(added).map(([family, list]) => (
              <div key={family}>
                <Text fz={11} fw={700} c="brand.7" tt="uppercase" mb={4}>
                  {family}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing={6} verticalSpacing={6}>
                  {list.map((m) => (
                    <Draggable key={m.moduleName} id={`cluster:${clusterKey}:${m.moduleName}`} data={{ source: 'cluster', key: clusterKey, module: m }} disabled={!editable}>
                      <ModuleChip module={m} action={editable ? 'remove' : undefined} onAction={() => props.onRemove(m.moduleName)} />
                    </Draggable>
                  ))}
                </SimpleGrid>
              </div>
            ))}
          </Stack>
        </DropArea>

        <DropArea
          id={`bin:${clusterKey}`}
          data={{ zone: 'bin', key: clusterKey }}
          disabled={!editable}
          tone="bin"
          label={`Removed modules of ${cluster.clusterId}`}
          testId="cluster-bin"
        >
          <Text fz={11} fw={700} c="dimmed" tt="uppercase" mb={removed.length ? 4 : 0}>
            Removed modules ({removed.length})
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing={6} verticalSpacing={6}>
            {removed.map((m) => (
              <Draggable key={m.moduleName} id={`bin:${clusterKey}:${m.moduleName}`} data={{ source: 'bin', key: clusterKey, module: m }} disabled={!editable}>
                <ModuleChip module={m} muted action={editable ? 'restore' : undefined} onAction={() => props.onRestore(m)} />
              </Draggable>
            ))}
          </SimpleGrid>
        </DropArea>

        <Paper bg="gray.0" p="sm" radius="sm" data-testid="cluster-footer">
          <Group gap="xl" align="flex-start" wrap="wrap">
            <Stat
              label="Range Facing"
              testId="range-facing"
              value={
                range ? (
                  <>
                    <Text span inherit c={range.min < totalMh ? 'red.9' : undefined} data-testid="min-facing">
                      {range.min}
                    </Text>
                    {' - '}
                    <Text span inherit c={range.max < totalSku ? 'red.9' : undefined} data-testid="max-facing">
                      {range.max}
                    </Text>
                  </>
                ) : (
                  (props.rangeFacing ?? '–')
                )
              }
            />
            <Stat label="Door" value={formatInteger(cluster.door)} testId="door" />
            <Tooltip label={percentage?.previousMonthId ? `Compared with ${formatMonthId(percentage.previousMonthId)}` : 'No earlier version of the cluster'}>
              <div>
                <Stat label="Refresh" value={refresh === null ? '–' : `${refresh}%`} red={refresh !== null && refresh > REFRESH_RED_ABOVE} testId="refresh" />
              </div>
            </Tooltip>
            <Stat label="Total SKU" value={formatInteger(totalSku)} testId="total-sku" />
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} mt="sm" spacing="sm">
            <MultiSelect
              label="LIA"
              size="xs"
              aria-label={`LIA of ${cluster.clusterId}`}
              data={cluster.lias.map((l) => ({ value: l.liaCode, label: `${l.liaCode} · ${l.planningChannelId}` }))}
              value={props.lias}
              onChange={props.onLias}
              disabled={!editable}
              error={props.lias.length === 0 ? MESSAGES.atLeastOneLia : undefined}
              clearable={false}
              data-testid="lia-picker"
            />
            <MultiSelect
              label="Client classification"
              size="xs"
              aria-label={`Client classification of ${cluster.clusterId}`}
              data={props.classificationOptions.map((c) => ({ value: String(c.classificationId), label: c.classificationLabel }))}
              value={props.classifications.map(String)}
              onChange={(values) => props.onClassifications(values.map(Number))}
              searchable
              searchValue={classSearch}
              onSearchChange={(v) => setClassSearch(v.slice(0, LIMITS.classificationLabel))}
              nothingFoundMessage="No classification found"
              disabled={!editable}
              limit={50}
            />
          </SimpleGrid>
        </Paper>
      </Stack>
    </Paper>
  );
}
