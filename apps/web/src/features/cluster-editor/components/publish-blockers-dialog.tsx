/**
 * The cluster Publish dialog when something blocks (issue 34 item 3, docs/LIFECYCLE.md "Publish per cluster"):
 * the spec's 'Attention! Module in WIP' and its text, then per cluster either ready or waiting with what
 * blocks it — each module as a link to its page (new tab) with its status, whether the caller may publish it
 * and why not, and its SKUs at fault as model / colour / size and why. Two ways on: 'Publish the N ready
 * clusters' (the others wait) and 'Publish the blocking modules' (those the caller may publish and that
 * would pass). A disabled action says why (tooltip and description).
 */
import { clusterKeyString } from '@bo/shared/item-keys';
import { Anchor, Badge, Button, Group, List, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconExternalLink } from '@tabler/icons-react';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { CLUSTER_PUBLISH_TEXTS as T, CLUSTER_TEXTS, type BlockingModule, type ClusterBlocking } from '@bo/shared/clusters';
import { PUBLISH_TEXTS } from '@bo/shared/modules';
import { sameUser } from '@bo/shared/permissions';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { formatMonthId } from '@/lib/format';
import { absolute, moduleUrl } from '@/lib/editor-urls';
import { modulesToPublish } from '../logic/blocking-modules';

interface ReadyCluster {
  clusterId: string;
  monthId: string;
  clusterLabel: string;
}

type PublishBlockersChoice = { kind: 'publishReady' } | { kind: 'publishModules'; modules: BlockingModule[] } | { kind: 'close' };

/** One line of a module's own state: why it cannot be published, or that it would pass. */
function moduleState(m: BlockingModule, username: string): string[] {
  if (m.status !== 'WIP') return [T.moduleNotWip(m.status)];
  const lines: string[] = [];
  if (!m.canPublish) lines.push(T.moduleNotYours);
  if (m.userLock && !sameUser(m.userLock, username)) lines.push(T.moduleLockedBy(m.userLock));
  if (m.publishable && lines.length === 0) lines.push(T.moduleWouldPass);
  return lines;
}

function skuReason(r: BlockingModule['reasons'][number]): string {
  if (!r.sku) return r.message;
  const why = r.code === 'skuSapDisabled' ? T.sapDisabled(r.sku.sapStatus) : r.message;
  const also = [r.sku.gedExpired ? T.gedExpired : null, r.sku.discontinued ? T.discontinued : null].filter(Boolean);
  return `SKU ${T.skuLine(r.sku)} (UPC ${r.sku.upc}): ${why}${also.length ? `; also ${also.join(', ')}` : ''}`;
}

function ModuleBlocker({ m, username }: { m: BlockingModule; username: string }) {
  return (
    <List.Item data-testid="blocking-module" data-module={m.moduleName}>
      <Anchor href={absolute(moduleUrl(m))} target="_blank" rel="noopener" fz="sm" fw={600}>
        {m.moduleLabel} ({m.moduleName}, {formatMonthId(m.monthId)}) <IconExternalLink size={12} aria-hidden />
        <VisuallyHidden>{T.opensInNewTab}</VisuallyHidden>
      </Anchor>
      <Text span fz="xs" c="dimmed">
        {' '}
        {m.status}
      </Text>
      <List size="sm" withPadding spacing={2}>
        {m.reasons.map((r, i) => (
          <List.Item key={i} data-testid="blocking-sku">
            <Text fz="sm" c="red">
              {skuReason(r)}
            </Text>
          </List.Item>
        ))}
        {moduleState(m, username).map((line) => (
          <List.Item key={line}>
            <Text fz="sm" c="dimmed">
              {line}
            </Text>
          </List.Item>
        ))}
      </List>
    </List.Item>
  );
}

function WaitingCluster({ c, username }: { c: ClusterBlocking; username: string }) {
  const byName = new Map(c.modules.map((m) => [m.moduleName, m]));
  return (
    <List.Item data-testid="publish-cluster" data-cluster={c.clusterId} data-state="waiting">
      <Group gap={8} wrap="nowrap">
        <Badge color="orange" variant="light" size="sm">
          {T.waiting}
        </Badge>
        <Text fz="sm" fw={650}>
          {c.clusterLabel} ({c.clusterId}, {formatMonthId(c.monthId)})
        </Text>
      </Group>
      <List size="sm" withPadding spacing={4}>
        {c.reasons.map((r, i) => {
          const m = r.moduleName ? byName.get(r.moduleName) : undefined;
          return m ? <ModuleBlocker key={i} m={m} username={username} /> : <List.Item key={i}>{r.message}</List.Item>;
        })}
      </List>
    </List.Item>
  );
}

/**
 * Opens the dialog; resolves with the planner's choice. `ready` are the clusters of the page that may go now,
 * `blocking` the server's answer for the others.
 */
export function askPublishBlockers(ready: readonly ReadyCluster[], blocking: readonly ClusterBlocking[], username: string): Promise<PublishBlockersChoice> {
  return new Promise((resolve) => {
    let answered = false;
    const id = `publish-blockers-${Date.now()}`;
    const answer = (value: PublishBlockersChoice) => {
      if (answered) return;
      answered = true;
      modals.close(id);
      resolve(value);
    };
    const wip = blocking.some((c) => c.reasons.some((r) => r.code === 'moduleInWip'));
    const modules = modulesToPublish(blocking, username);
    const anyModule = blocking.some((c) => c.modules.length > 0);
    modals.open({
      modalId: id,
      title: (
        <Text fw={700} c={wip ? 'var(--bo-warning-text)' : 'red'}>
          {wip ? CLUSTER_EDITOR_TEXTS.moduleInWipTitle : PUBLISH_TEXTS.blockedTitle}
        </Text>
      ),
      centered: true,
      size: 'xl',
      onClose: () => answer({ kind: 'close' }),
      children: (
        <Stack gap="md" data-testid="publish-blockers">
          <Text fz="sm">{wip ? CLUSTER_TEXTS.modulesInWip : PUBLISH_TEXTS.blockedIntro}</Text>
          {ready.length > 0 && (
            <Stack gap={4}>
              <Title order={3} fz="sm">
                {T.readyHeading(ready.length)}
              </Title>
              <List size="sm" spacing={2}>
                {ready.map((c) => (
                  <List.Item key={clusterKeyString(c)} data-testid="publish-cluster" data-cluster={c.clusterId} data-state="ready">
                    <Group gap={8} wrap="nowrap">
                      <Badge color="teal" variant="light" size="sm">
                        {T.ready}
                      </Badge>
                      <Text fz="sm">
                        {c.clusterLabel} ({c.clusterId}, {formatMonthId(c.monthId)})
                      </Text>
                    </Group>
                  </List.Item>
                ))}
              </List>
            </Stack>
          )}
          <Stack gap={4}>
            <Title order={3} fz="sm">
              {T.waitingHeading(blocking.length)}
            </Title>
            <List size="sm" spacing={8}>
              {blocking.map((c) => (
                <WaitingCluster key={clusterKeyString(c)} c={c} username={username} />
              ))}
            </List>
          </Stack>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => answer({ kind: 'close' })}>
              Close
            </Button>
            {anyModule && (
              <DisabledReason reason={modules.length === 0 && T.noModuleToPublish}>
                <Button variant="light" color="teal" onClick={() => answer({ kind: 'publishModules', modules })} data-autofocus={ready.length === 0 || undefined}>
                  {T.publishModules(modules.length)}
                </Button>
              </DisabledReason>
            )}
            <DisabledReason reason={ready.length === 0 && T.noneReady}>
              {/* The dialog opens on the action that moves on: the ready clusters, else the blocking modules. */}
              <Button color="teal" onClick={() => answer({ kind: 'publishReady' })} data-autofocus={ready.length > 0 || undefined}>
                {T.publishReady(ready.length)}
              </Button>
            </DisabledReason>
          </Group>
        </Stack>
      ),
    });
  });
}
