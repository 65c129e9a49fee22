import { ActionIcon, Button, Group, Menu, Paper, SegmentedControl, Select, Text } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconChartDots3,
  IconCopy,
  IconDeviceFloppy,
  IconDownload,
  IconFileImport,
  IconLayoutList,
  IconListDetails,
  IconPlus,
  IconSearch,
  IconSend,
} from '@tabler/icons-react';
import { formatMonthId } from '@/lib/format';
import type { PerformanceFilters } from '@bo/shared/working-area';
import { canCreateAny, canPublishAny, canUseCopyPopup } from '@bo/shared/permissions';
import { useSession } from '@/lib/session';
import { hasChanges } from '../hooks/editor-reducer';
import type { useModuleActions } from '../hooks/use-module-actions';
import type { ModuleEditor } from '../hooks/use-module-editor';
import { NEWNESS_TABS, type NewnessTab } from '../hooks/use-newness';
import type { ModuleKeyString } from '../logic/module-key';
import { MODULE_ORDERS, SKU_ORDERS, type ModuleOrder, type SkuOrder } from '../logic/ordering';
import { PerformanceFiltersButton } from './performance-filters-button';

export type PanelName = 'analysis' | 'active' | 'modules';

interface EditorHeaderProps {
  editor: ModuleEditor;
  actions: ReturnType<typeof useModuleActions>;
  keys: ModuleKeyString[];
  moduleOrder: ModuleOrder;
  onModuleOrder: (o: ModuleOrder) => void;
  skuOrder: SkuOrder;
  onSkuOrder: (o: SkuOrder) => void;
  panel: PanelName | null;
  onPanel: (p: PanelName | null) => void;
  newnessTab: NewnessTab | null;
  onNewnessTab: (t: NewnessTab | null) => void;
  onCreate: () => void;
  onImport: () => void;
  onExport: () => void;
  /** How many modules of the page the user may export. */
  exportable: number;
  /** How many cards the Modules panel's filter shows. */
  shownCount: number;
  performanceFilters: PerformanceFilters;
  onPerformanceFilters: (next: PerformanceFilters) => void;
  onCopyAll: () => void;
  onCollapseAll: (collapsed: boolean) => void;
}

/** Page actions: create/import/export, orderings, panels, newness view, undo/redo, save-all, publish-all, copy-all. */
export function EditorHeader(p: EditorHeaderProps) {
  const grants = useSession((s) => s.grants) ?? [];
  const { editor, actions, keys } = p;
  const months = [...new Set(editor.modules.map((m) => m.dto.monthId))];
  const toSave = keys.filter((k) => editor.access[k]?.canSave && editor.state.modules[k] && hasChanges(editor.state.modules[k]));
  const toPublish = keys.filter((k) => editor.access[k]?.canPublish);
  const mayCreate = canCreateAny(grants);
  const editable = keys.some((k) => editor.access[k]?.canSave);
  const copyAllReason = !canUseCopyPopup(grants)
    ? 'You need a copy right'
    : keys.length === 0
      ? 'No module on the page'
      : editor.dirty
        ? 'Save your changes before copying'
        : null;
  const saveAllReason = toSave.length > 0 ? null : editable ? 'No unsaved changes' : 'Read only: you cannot edit any module of the page';
  const publishAllReason = !canPublishAny(grants) ? 'You need a publish right' : toPublish.length === 0 ? 'No work-in-progress module of the page that you may publish' : null;
  const panelButton = (name: PanelName, label: string, icon: React.ReactNode) => (
    <Button size="compact-sm" variant={p.panel === name ? 'filled' : 'default'} leftSection={icon} onClick={() => p.onPanel(p.panel === name ? null : name)} aria-pressed={p.panel === name}>
      {label}
    </Button>
  );
  return (
    <Paper withBorder radius="md" px="sm" py={6}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <Text fw={700} fz="md" c="brand.9" style={{ whiteSpace: 'nowrap' }}>
            Working Area
          </Text>
          <Text fz="xs" c="dimmed" data-testid="searched" style={{ whiteSpace: 'nowrap' }}>
            You searched: {months.map(formatMonthId).join(', ') || '–'} · {editor.modules.length} module{editor.modules.length === 1 ? '' : 's'}
            {p.shownCount < editor.modules.length ? ` (${p.shownCount} shown)` : ''}
          </Text>
          {panelButton('modules', 'Modules', <IconListDetails size={14} />)}
          {panelButton('analysis', 'Cluster Analysis', <IconChartDots3 size={14} />)}
          {panelButton('active', 'Active SKUs', <IconSearch size={14} />)}
          <PerformanceFiltersButton value={p.performanceFilters} onChange={p.onPerformanceFilters} />
        </Group>
        <Group gap={6} wrap="nowrap">
          <DisabledReason reason={!mayCreate && 'You need a create right for a brand'} label="Create a module and add it to the page">
            <Button size="compact-sm" variant="default" leftSection={<IconPlus size={14} />} onClick={p.onCreate} data-testid="create-module">
              Create Module
            </Button>
          </DisabledReason>
          <Button size="compact-sm" variant="default" leftSection={<IconFileImport size={14} />} onClick={p.onImport}>
            Import Module
          </Button>
          <DisabledReason reason={p.exportable === 0 && 'You need an edit grant on the brand and a zone of a module'} label="Export the modules of the page (saved version)">
            <Button size="compact-sm" variant="default" leftSection={<IconDownload size={14} />} onClick={p.onExport} data-testid="export-module">
              Export Module
            </Button>
          </DisabledReason>
          <DisabledReason reason={!editor.canUndo && 'Nothing to undo'} label="Undo (Ctrl+Z)">
            <ActionIcon variant="default" onClick={editor.undo} aria-label="Undo">
              <IconArrowBackUp size={16} />
            </ActionIcon>
          </DisabledReason>
          <DisabledReason reason={!editor.canRedo && 'Nothing to redo'} label="Redo (Ctrl+Shift+Z)">
            <ActionIcon variant="default" onClick={editor.redo} aria-label="Redo">
              <IconArrowForwardUp size={16} />
            </ActionIcon>
          </DisabledReason>
          <DisabledReason reason={copyAllReason}>
            <Button size="compact-sm" variant="default" leftSection={<IconCopy size={14} />} onClick={p.onCopyAll}>
              Copy all
            </Button>
          </DisabledReason>
          <DisabledReason reason={saveAllReason}>
            <Button size="compact-sm" variant="light" leftSection={<IconDeviceFloppy size={14} />} onClick={() => void actions.saveAll(toSave)}>
              Save all{toSave.length ? ` (${toSave.length})` : ''}
            </Button>
          </DisabledReason>
          <DisabledReason reason={publishAllReason}>
            <Button size="compact-sm" leftSection={<IconSend size={14} />} onClick={() => void actions.publishAll(toPublish)}>
              Publish all
            </Button>
          </DisabledReason>
        </Group>
      </Group>
      <Group gap="xs" mt={6} wrap="wrap" justify="space-between">
        <Group gap="xs" wrap="nowrap">
          <Select size="xs" w={170} label={undefined} aria-label="Order modules by" leftSection={<IconLayoutList size={13} />} data={MODULE_ORDERS} value={p.moduleOrder} onChange={(v) => v && p.onModuleOrder(v as ModuleOrder)} allowDeselect={false} />
          <Select size="xs" w={130} aria-label="Order SKUs by" data={SKU_ORDERS.map((o) => ({ ...o, label: `SKUs: ${o.label}` }))} value={p.skuOrder} onChange={(v) => v && p.onSkuOrder(v as SkuOrder)} allowDeselect={false} />
          <Menu position="bottom-start">
            <Menu.Target>
              <Button size="compact-xs" variant="subtle">
                Expand / collapse
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => p.onCollapseAll(false)}>Expand all</Menu.Item>
              <Menu.Item onClick={() => p.onCollapseAll(true)}>Collapse all</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        <Group gap={6} wrap="nowrap">
          <Text fz="xs" c="dimmed">
            Newness view
          </Text>
          <SegmentedControl
            size="xs"
            value={p.newnessTab === null ? 'off' : String(p.newnessTab)}
            onChange={(v) => p.onNewnessTab(v === 'off' ? null : (Number(v) as NewnessTab))}
            data={[{ value: 'off', label: 'Off' }, ...NEWNESS_TABS.map((t) => ({ value: String(t.value), label: t.label }))]}
          />
        </Group>
      </Group>
    </Paper>
  );
}
