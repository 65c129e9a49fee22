import { cloneElement, memo, useId, useMemo, useRef, useState, type ReactElement } from 'react';
import { ActionIcon, Badge, Box, Button, Collapse, Group, Paper, Text, TextInput, Tooltip, type TooltipProps } from '@mantine/core';
import { IconAlertTriangle, IconChartBar, IconChevronDown, IconCopy, IconDeviceFloppy, IconHistory, IconLock, IconSend, IconX } from '@tabler/icons-react';
import type { ProductDto } from '@bo/shared/modules';
import { canEdit } from '@bo/shared/permissions';
import { LockBanner } from '@/components/editor/lock-banner';
import type { ItemNotice } from '@/components/editor/live-item-notices';
import { LiveItemNotice } from '@/components/editor/live-item-notice';
import { PresenceList } from '@/components/live/presence-list';
import { NO_GRANTS, useSession } from '@/lib/session';
import { WORKING_AREA_TEXTS } from '@bo/shared/working-area';
import { formatMonthId } from '@/lib/format';
import { formatInteger, moduleStatusColor, statusLabel } from '../logic/labels';
import { showMessagePopup } from '@/components/ui/message-popup';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { NotPublishedBadge } from '@/components/editor/publish-outcome';
import { activeCounts, countsDifferFromPrevious, isDescriptionEdited, hasChanges, type EditorModule } from '../hooks/editor-reducer';
import type { Area } from '../logic/drop-rules';
import type { ModuleAccess } from '../logic/module-access';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';
import { compareSkus, type SkuOrder } from '../logic/ordering';
import { SkuArea } from './sku-area';
import type { SkuMenuAction } from './sku-tile';
import classes from './module-card.module.css';

export interface ModuleCardHandlers {
  onToggle: (key: ModuleKeyString, upc: string) => void;
  onKeyAction: (key: ModuleKeyString, upc: string, pressed: string) => void;
  onMinValue: (key: ModuleKeyString, upc: string, value: number) => void;
  onDescription: (key: ModuleKeyString, value: string) => void;
  onNewModule: (key: ModuleKeyString, value: boolean) => void;
  onSave: (key: ModuleKeyString) => void;
  onPublish: (key: ModuleKeyString) => void;
  onCopy: (key: ModuleKeyString) => void;
  onPerformance: (key: ModuleKeyString) => void;
  /** Opens the module's History panel (versions, comparison, restore). */
  onHistory: (key: ModuleKeyString) => void;
  onCollapse: (key: ModuleKeyString) => void;
  onClose: (key: ModuleKeyString) => void;
  /** Forced unlock of a module another user holds, then the page takes its lock and reads it again. */
  onUnlock: (key: ModuleKeyString) => Promise<void>;
  /** Live notices (issue 36): take the lock the other user released (or the lapsed one back), keeping unsaved edits. */
  onEditNow: (key: ModuleKeyString) => Promise<void>;
  /** Reads the saved module again (asks first when the card has unsaved edits). */
  onReload: (key: ModuleKeyString) => Promise<void>;
  /** Whether the user could edit the module if its lock were free. */
  mayEdit: (key: ModuleKeyString) => boolean;
  menu: (key: ModuleKeyString, product: ProductDto, area: Area) => SkuMenuAction[];
  onInfo: (key: ModuleKeyString, product: ProductDto) => void;
}

interface ModuleCardProps {
  module: EditorModule;
  access: ModuleAccess;
  collapsed: boolean;
  skuOrder: SkuOrder;
  highlight: Set<string> | null;
  handlers: ModuleCardHandlers;
  notice?: ItemNotice | undefined;
}

/** One module of the page: header with state and actions, description, MH and EL areas and the bin. */
export const ModuleCard = memo(function ModuleCard({ module: m, access, collapsed, skuOrder, highlight, handlers: h, notice }: ModuleCardProps) {
  const key = moduleKey(m.dto);
  const dto = m.dto;
  const { mh, el } = activeCounts(m.products);
  const differ = countsDifferFromPrevious(m);
  const changed = hasChanges(m);
  const grants = useSession((s) => s.grants) ?? NO_GRANTS;
  // Why a card action is disabled (components/ui/disabled-reason.tsx): the read-only reason first, else the action's own.
  const busyReason = 'Wait for the current save or publish to finish';
  const copyReason = changed ? 'Save your changes before copying' : access.canCopy ? null : access.readOnly && !access.reason ? busyReason : "You need a copy right on this module's brand and zone";
  const saveReason = !access.canSave ? (access.reason ?? (access.readOnly ? busyReason : "You need an edit right on this module's brand and zone")) : changed ? null : 'No unsaved changes';
  const publishReason = access.canPublish
    ? null
    : (access.reason ?? (access.readOnly ? busyReason : dto.status !== 'WIP' ? 'Only a work-in-progress module is published' : "You need a publish right on this module's brand and zone"));
  const areas = useMemo(() => {
    const sorted = m.products.slice().sort(compareSkus(skuOrder));
    return {
      MH: sorted.filter((p) => p.moduleCompositionStatus !== 'REMOVED' && p.mustHave),
      EL: sorted.filter((p) => p.moduleCompositionStatus !== 'REMOVED' && !p.mustHave),
      BIN: sorted.filter((p) => p.moduleCompositionStatus === 'REMOVED'),
    };
  }, [m.products, skuOrder]);

  return (
    <Paper withBorder radius="md" className={classes.card} data-testid="module-card" data-module={dto.moduleName} data-status={dto.status} data-edited={changed || undefined}>
      <Group className={classes.header} gap={8} wrap="wrap" justify="space-between">
        <Group gap={8} wrap="nowrap" miw={0} style={{ flex: '1 1 360px' }}>
          <ActionIcon variant="subtle" color="gray" onClick={() => h.onCollapse(key)} aria-label={collapsed ? 'Expand module' : 'Collapse module'} aria-expanded={!collapsed}>
            <IconChevronDown size={16} style={{ transform: collapsed ? 'rotate(-90deg)' : undefined, transition: 'transform 120ms' }} />
          </ActionIcon>
          <Box miw={0}>
            <Group gap={6} wrap="nowrap">
              {/* elementtiming: the benchmark reads when the first card was painted (Element Timing API). */}
              <Text fw={700} fz="sm" truncate data-testid="module-label" elementtiming="module-card">
                {dto.moduleLabel}
              </Text>
              {changed && (
                <HoverTooltip label="Unsaved changes">
                  <span className={classes.dirtyDot} data-testid="unsaved-dot" />
                </HoverTooltip>
              )}
            </Group>
            <Text fz={11} c="dimmed" truncate>
              {dto.moduleName} · {dto.macroFamily} · {dto.brand} {dto.collection} · {formatMonthId(dto.monthId)}
            </Text>
          </Box>
          <Badge size="sm" variant="light" color={moduleStatusColor(dto.status)} data-testid="module-status" style={{ flexShrink: 0 }}>
            {statusLabel(dto.status)}
          </Badge>
          {dto.legoMonth && (
            <Badge size="sm" variant="outline" color="yellow">
              LEGO
            </Badge>
          )}
          {dto.rpasErrors && dto.status === 'WIP' ? (
            // Rejected by the planning system: the module is not published, and the page says why.
            <NotPublishedBadge name={`${dto.moduleLabel} (${dto.moduleName})`} status={dto.status} rpasErrors={dto.rpasErrors} />
          ) : dto.rpasErrors ? (
            <HoverTooltip label="Planning system warnings">
              <ActionIcon variant="light" color="orange" size="sm" aria-label="Planning system warnings" onClick={() => showMessagePopup('Warning', dto.rpasErrors ?? '', 'orange')}>
                <IconAlertTriangle size={14} />
              </ActionIcon>
            </HoverTooltip>
          ) : null}
        </Group>
        {/* Wraps under the title on a narrow card (1024 px with a panel open) instead of clipping the buttons. */}
        <Group gap={6} wrap="wrap" justify="flex-end" ml="auto">
          <HoverTooltip label={differ ? WORKING_AREA_TEXTS.countCaution : 'Must have / eligible (previous month)'} multiline w={280}>
            <Group gap={4} wrap="nowrap" className={classes.counts} data-caution={differ || undefined} data-testid="module-counts">
              {differ && <IconAlertTriangle size={13} />}
              <Text fz={11} fw={600} style={{ whiteSpace: 'nowrap' }}>
                MH {mh}
                <span className={classes.prev}>/{dto.previousMustHave}</span> · EL {el}
                <span className={classes.prev}>/{dto.previousEligible}</span>
              </Text>
            </Group>
          </HoverTooltip>
          <Text fz={11} c="dimmed" visibleFrom="lg">
            Doors {formatInteger(dto.door)} · Refresh {dto.refreshIndex}%
          </Text>
          <NewnessSwitch value={m.newModule} disabled={access.readOnly} onChange={(v) => h.onNewModule(key, v)} />
          <HoverTooltip label="Performance">
            <ActionIcon variant="light" onClick={() => h.onPerformance(key)} aria-label="Performance">
              <IconChartBar size={16} />
            </ActionIcon>
          </HoverTooltip>
          <HoverTooltip label="History">
            <ActionIcon variant="light" onClick={() => h.onHistory(key)} aria-label="History" data-testid="module-history">
              <IconHistory size={16} />
            </ActionIcon>
          </HoverTooltip>
          <DisabledReason reason={copyReason}>
            <Button size="compact-sm" variant="default" leftSection={<IconCopy size={14} />} onClick={() => h.onCopy(key)}>
              Copy
            </Button>
          </DisabledReason>
          <DisabledReason reason={saveReason}>
            <Button size="compact-sm" variant="light" leftSection={<IconDeviceFloppy size={14} />} onClick={() => h.onSave(key)}>
              Save
            </Button>
          </DisabledReason>
          <DisabledReason reason={publishReason}>
            <Button size="compact-sm" leftSection={<IconSend size={14} />} onClick={() => h.onPublish(key)}>
              Save &amp; Publish
            </Button>
          </DisabledReason>
          <DisabledReason reason={changed && 'Save or undo your changes before closing'} label="Close (unlocks the module)">
            <ActionIcon variant="subtle" color="gray" onClick={() => h.onClose(key)} aria-label="Close module">
              <IconX size={14} />
            </ActionIcon>
          </DisabledReason>
        </Group>
      </Group>
      <PresenceSlot moduleName={dto.moduleName} monthId={dto.monthId} what={`the module ${dto.moduleLabel}`} />
      {notice && (
        <Box px={10} pt={6}>
          <LiveItemNotice kind="module" notice={notice} dirty={changed} canEdit={h.mayEdit(key)} onEdit={() => h.onEditNow(key)} onReload={() => h.onReload(key)} />
        </Box>
      )}
      {access.lockedBy && !notice?.released && (
        // The whole owner name (not once the live notice says they released it), with Unlock (admin or edit right: forced) or Ask to unlock.
        <Box px={10} pt={6}>
          <LockBanner
            owner={access.lockedBy}
            type="module"
            item={`${dto.moduleLabel} (${dto.moduleName}, ${formatMonthId(dto.monthId)})`}
            canUnlock={canEdit(grants, { brand: dto.brand, zones: dto.starZones })}
            onUnlock={() => h.onUnlock(key)}
          />
        </Box>
      )}
      {access.reason && !(access.lockedBy && access.reason.startsWith(`${access.lockedBy} is editing`)) && (
        <Text className={classes.readOnly} data-testid="read-only-reason">
          <IconLock size={12} /> {access.reason}
        </Text>
      )}
      <Collapse expanded={!collapsed}>
        <Box className={classes.body}>
          <TextInput
            size="xs"
            placeholder="Module description"
            aria-label="Module description"
            value={m.description}
            maxLength={100}
            readOnly={access.readOnly}
            onChange={(e) => h.onDescription(key, e.currentTarget.value)}
            rightSection={<Text fz={10} c={isDescriptionEdited(m) ? 'brand.7' : 'dimmed'}>{m.description.length}/100</Text>}
            rightSectionWidth={52}
            mb={6}
          />
          <div className={classes.areas}>
            <div className={classes.main}>
              <SkuArea moduleKey={key} area="MH" products={areas.MH} readOnly={access.readOnly} emptyText="Drop must-have SKUs here" highlight={highlight} {...areaHandlers(h)} />
              <SkuArea moduleKey={key} area="EL" products={areas.EL} readOnly={access.readOnly} emptyText={WORKING_AREA_TEXTS.noEligibles} highlight={highlight} {...areaHandlers(h)} />
            </div>
            <div className={classes.bin}>
              <SkuArea moduleKey={key} area="BIN" products={areas.BIN} readOnly={access.readOnly} emptyText={WORKING_AREA_TEXTS.noRemoved} highlight={null} {...areaHandlers(h)} />
            </div>
          </div>
        </Box>
      </Collapse>
    </Paper>
  );
});

/** Who else has the module open (nothing when nobody does), under the header. */
function PresenceSlot({ moduleName, monthId, what }: { moduleName: string; monthId: string; what: string }) {
  const item = useMemo(() => ({ kind: 'module' as const, name: moduleName, monthId }), [moduleName, monthId]);
  return <PresenceList item={item} what={what} px={10} pt={6} />;
}

/**
 * A Mantine Tooltip mounted on the first hover of its target: each card has up to six, and each is a
 * floating-ui setup (hooks, refs, effects) that a page of cards would build for nothing. The target is
 * drawn as it is (never replaced); its first pointer entry mounts an opened Tooltip aimed at it, which
 * then opens and closes on hover by itself.
 */
function HoverTooltip({ children, ...props }: Omit<TooltipProps, 'children' | 'target'> & { children: ReactElement<{ onPointerEnter?: () => void; ref?: React.Ref<HTMLElement> }> }) {
  const [armed, setArmed] = useState(false);
  const target = useRef<HTMLElement>(null);
  return (
    <>
      {cloneElement(children, { ref: target, onPointerEnter: armed ? undefined : () => setArmed(true) })}
      {armed && <Tooltip defaultOpened target={target} {...props} />}
    </>
  );
}

/**
 * NEWNESS / CARRY OVER: two radio buttons with the look of a Mantine SegmentedControl (size xs), without
 * its floating indicator, which measures its items (forced layout) in an effect of every card.
 */
function NewnessSwitch({ value, disabled, onChange }: { value: boolean; disabled: boolean; onChange: (newModule: boolean) => void }) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label="Newness or carry over" className={classes.segments} data-disabled={disabled || undefined}>
      {[true, false].map((v) => (
        <label key={String(v)} className={classes.segment} data-active={value === v || undefined}>
          <input type="radio" className={classes.segmentInput} name={name} value={v ? 'NEWNESS' : 'CARRY OVER'} checked={value === v} disabled={disabled} onChange={() => onChange(v)} />
          {v ? 'NEWNESS' : 'CARRY OVER'}
        </label>
      ))}
    </div>
  );
}

const areaHandlers = (h: ModuleCardHandlers) => ({
  onToggle: h.onToggle,
  onKeyAction: h.onKeyAction,
  onMinValue: h.onMinValue,
  menu: h.menu,
  onInfo: h.onInfo,
});
