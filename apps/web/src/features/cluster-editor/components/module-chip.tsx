import { ActionIcon, Badge, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconExternalLink, IconTrash } from '@tabler/icons-react';
import { BASE_PATH } from '@/config/app';
import { paths } from '@/config/paths';
import { formatInteger } from '@/lib/format';
import type { EditorModule, SkuCounts } from '../logic/composition';

/** '12 SKUs · MH 4 / EL 8' (home's module rows say it the same way); only the total when MH/EL are unknown. */
const skuCountsText = (c: SkuCounts) =>
  `${formatInteger(c.total)} SKU${c.total === 1 ? '' : 's'}${c.mh !== null && c.el !== null ? ` · MH ${formatInteger(c.mh)} / EL ${formatInteger(c.el)}` : ''}`;

/** The module route for a new tab (part 2 §2). */
export const moduleHref = (m: { moduleName: string; monthId: string }) =>
  `${BASE_PATH}${paths.module.path}?moduleName=${encodeURIComponent(m.moduleName)}&monthId=${encodeURIComponent(m.monthId)}`;

/** One module: label, name, SKU count with MH/EL, its WIP state, a link to open it in a new tab and a remove or restore button. */
export function ModuleChip({
  module,
  action,
  onAction,
  muted,
  extra,
}: {
  module: EditorModule;
  action?: 'remove' | 'restore';
  onAction?: () => void;
  muted?: boolean;
  extra?: React.ReactNode;
}) {
  return (
    <Paper
      px={8}
      py={4}
      radius="sm"
      withBorder
      bg={muted ? 'gray.1' : 'white'}
      data-testid="module-chip"
      data-module={module.moduleName}
      style={{ minWidth: 0 }}
    >
      <Group gap={6} wrap="nowrap" justify="space-between">
        <div style={{ minWidth: 0 }}>
          <Text fz="sm" fw={600} truncate c={muted ? 'dimmed' : undefined} td={muted ? 'line-through' : undefined}>
            {module.moduleLabel}
          </Text>
          <Text fz={11} c="dimmed" truncate>
            {module.moduleName}
          </Text>
          {module.skus ? (
            <Text fz={11} c={muted ? 'dimmed' : 'gray.7'} fw={500} truncate data-testid="chip-counts" title="Active SKUs: must-have (MH) / eligible (EL)">
              {skuCountsText(module.skus)}
            </Text>
          ) : null}
        </div>
        <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
          {extra}
          {module.status === 'WIP' ? (
            <Badge size="xs" color="orange" variant="light">
              WIP
            </Badge>
          ) : null}
          <Tooltip label="Open the module in a new tab">
            <ActionIcon
              component="a"
              href={moduleHref(module)}
              target="_blank"
              rel="noopener"
              size="sm"
              variant="subtle"
              color="gray"
              aria-label={`Open ${module.moduleName} in a new tab`}
              onPointerDown={(e) => e.stopPropagation()}
            >
              <IconExternalLink size={14} />
            </ActionIcon>
          </Tooltip>
          {action && onAction ? (
            <Tooltip label={action === 'remove' ? 'Remove' : 'Restore'}>
              <ActionIcon
                size="sm"
                variant="subtle"
                color={action === 'remove' ? 'red' : 'teal'}
                aria-label={`${action === 'remove' ? 'Remove' : 'Restore'} ${module.moduleName}`}
                onPointerDown={(e) => e.stopPropagation()}
                onKeyDown={(e) => e.stopPropagation()}
                onClick={onAction}
                data-chip-action={action}
              >
                {action === 'remove' ? <IconTrash size={14} /> : <IconArrowBackUp size={14} />}
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
}
