/**
 * 'Attention! Module in WIP' (part 2 §5) made a way forward: the spec's text, the modules in WIP with a
 * link that opens each in a new tab, and — for a caller with the submit right on all of them — 'Publish
 * these modules first' (docs/LIFECYCLE.md "Publish").
 */
import { Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { moduleKeyString } from '@bo/shared/item-keys';
import { modals } from '@mantine/modals';
import { IconExternalLink } from '@tabler/icons-react';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { PUBLISH_TEXTS } from '@bo/shared/modules';
import { absolute, moduleUrl } from '@/lib/editor-urls';

export interface WipModule {
  moduleName: string;
  moduleLabel: string;
  monthId: string;
  /** The clusters of the page that hold it. */
  clusterIds: string[];
}

/** Resolves 'publishFirst' when the caller chose to publish the modules, 'close' otherwise. */
export function askWipModules(modules: readonly WipModule[], canPublishFirst: boolean): Promise<'publishFirst' | 'close'> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (value: 'publishFirst' | 'close') => {
      if (answered) return;
      answered = true;
      modals.close(id);
      resolve(value);
    };
    const id = `wip-modules-${Date.now()}`;
    modals.open({
      modalId: id,
      title: (
        <Text fw={700} c="orange">
          {CLUSTER_EDITOR_TEXTS.moduleInWipTitle}
        </Text>
      ),
      centered: true,
      size: 'lg',
      onClose: () => answer('close'),
      children: (
        <Stack gap="md" data-testid="wip-modules-popup">
          <Text fz="sm">{CLUSTER_TEXTS.modulesInWip}</Text>
          <List size="sm" spacing={4}>
            {modules.map((m) => (
              <List.Item key={moduleKeyString(m)} data-testid="wip-module" data-module={m.moduleName}>
                <Anchor href={absolute(moduleUrl(m))} target="_blank" rel="noopener" fz="sm">
                  {m.moduleLabel} ({m.moduleName}) <IconExternalLink size={12} />
                </Anchor>
                <Text span fz="xs" c="dimmed">
                  {' '}
                  in {m.clusterIds.join(', ')}
                </Text>
              </List.Item>
            ))}
          </List>
          {!canPublishFirst && (
            <Text fz="xs" c="dimmed">
              {PUBLISH_TEXTS.noSubmitOnModules}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => answer('close')}>
              Close
            </Button>
            {canPublishFirst && (
              <Button color="teal" onClick={() => answer('publishFirst')} data-autofocus>
                {PUBLISH_TEXTS.publishModulesFirst}
              </Button>
            )}
          </Group>
        </Stack>
      ),
    });
  });
}
