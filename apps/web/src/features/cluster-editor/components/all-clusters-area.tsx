import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { byFamily, type EditorModule } from '../logic/composition';
import { Draggable, DropArea } from './dnd';
import { ModuleChip } from './module-chip';

/**
 * 'Add to all clusters' (part 2 §2, §4): the modules every open cluster holds. A module dropped here goes
 * into every cluster of its brand; one removed here leaves every cluster, and waits in this area's bin.
 */
export function AllClustersArea({
  common,
  bin,
  editable,
  onRemove,
  onRestore,
}: {
  common: EditorModule[];
  bin: EditorModule[];
  editable: boolean;
  onRemove: (m: EditorModule) => void;
  onRestore: (m: EditorModule) => void;
}) {
  return (
    <Paper withBorder radius="md" p="md" shadow="xs" data-testid="all-clusters">
      <Stack gap="sm">
        <div>
          <Title order={4}>{CLUSTER_EDITOR_TEXTS.addToAll}</Title>
          <Text fz="xs" c="dimmed">
            Modules common to all the open clusters. Drop a module here to add it to every cluster of its brand.
          </Text>
        </div>
        <DropArea id="all" data={{ zone: 'all' }} disabled={!editable} label={CLUSTER_EDITOR_TEXTS.addToAll} testId="all-modules" empty={common.length === 0 ? 'No module is common to all clusters' : undefined}>
          <Stack gap="xs">
            {byFamily(common).map(([family, list]) => (
              <div key={family}>
                <Text fz={11} fw={700} c="brand.7" tt="uppercase" mb={4}>
                  {family}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing={6}>
                  {list.map((m) => (
                    <Draggable key={m.moduleName} id={`all:${m.moduleName}`} data={{ source: 'all', module: m }} disabled={!editable}>
                      <ModuleChip module={m} action={editable ? 'remove' : undefined} onAction={() => onRemove(m)} />
                    </Draggable>
                  ))}
                </SimpleGrid>
              </div>
            ))}
          </Stack>
        </DropArea>
        <DropArea id="allBin" data={{ zone: 'allBin' }} disabled={!editable} tone="bin" label="Modules removed from all clusters" testId="all-bin">
          <Text fz={11} fw={700} c="dimmed" tt="uppercase" mb={bin.length ? 4 : 0}>
            Removed from all clusters ({bin.length})
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing={6}>
            {bin.map((m) => (
              <Draggable key={m.moduleName} id={`allBin:${m.moduleName}`} data={{ source: 'allBin', module: m }} disabled={!editable}>
                <ModuleChip module={m} muted action={editable ? 'restore' : undefined} onAction={() => onRestore(m)} />
              </Draggable>
            ))}
          </SimpleGrid>
        </DropArea>
      </Stack>
    </Paper>
  );
}
