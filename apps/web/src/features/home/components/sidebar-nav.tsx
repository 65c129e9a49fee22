import { Button, Divider, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconBellFilled,
  IconBrandAsana,
  IconCalendarEvent,
  IconChartBar,
  IconChecklist,
  IconDatabaseImport,
  IconFileExport,
  IconHourglassHigh,
  IconTags,
  IconTrash,
  IconUsers,
  IconEdit,
  IconCircleOff,
  IconCircleCheck,
} from '@tabler/icons-react';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { useNavigate } from 'react-router';
import { BADGE_COUNT_CAP } from '@bo/shared/badges';
import { canAdminister, canExportAny, canImportAny, canUseDiscoArea, hasType, isAdmin } from '@bo/shared/permissions';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useBadgeCounts } from '../api/get-badge-counts';
import { usePendingAlerts } from '../api/get-pending-alerts';
import type { HomeSelection } from '../logic/home-selection';
import { clearMassiveEditRows, statisticsUrl } from '../logic/open-items';

/** The server stops counting at BADGE_COUNT_CAP. */
const countText = (n: number) => (n >= BADGE_COUNT_CAP ? `${BADGE_COUNT_CAP}+` : String(n));

function Bell({ color, label, testId }: { color: 'red' | 'orange'; label: string; testId: string }) {
  return (
    <Tooltip label={label} withArrow>
      <IconBellFilled size={16} color={`var(--mantine-color-${color}-6)`} data-testid={testId} aria-label={label} />
    </Tooltip>
  );
}

function NavButton({
  icon,
  label,
  onClick,
  disabled,
  disabledReason,
  bells,
  testId,
}: {
  icon: React.ReactNode;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  disabledReason?: string;
  bells?: React.ReactNode;
  testId: string;
}) {
  const button = (
    <Button
      variant="subtle"
      color="dark"
      justify="space-between"
      fullWidth
      fw={500}
      leftSection={icon}
      rightSection={bells ? <Group gap={2}>{bells}</Group> : null}
      onClick={onClick}
      data-testid={testId}
      styles={{ label: { flex: 1 } }}
    >
      {label}
    </Button>
  );
  return (
    <DisabledReason reason={disabled && (disabledReason ?? 'Not available')} position="right">
      {button}
    </DisabledReason>
  );
}

/**
 * The home sidebar's buttons (part 1 §2; Manage Releases joins the admin's Manage Users and Brands, as
 * the route table has it) with the permission rules of packages/shared/src/permissions.ts,
 * the DISCO/REMOVED bells (red: discontinued SKUs, orange: removed SKUs) and the Pending Area bell.
 */
export function SidebarNav({ selection, onOpenClassifications }: { selection: HomeSelection; onOpenClassifications: () => void }) {
  const navigate = useNavigate();
  const grants = useSession((s) => s.grants) ?? [];
  const admin = isAdmin(grants);
  const disco = canUseDiscoArea(grants);
  const badges = useBadgeCounts(disco);
  const pending = usePendingAlerts();
  const go = (path: string) => () => navigate(path);
  const statisticsReady = !!selection.monthId && selection.brand.length > 0;

  return (
    <Stack gap={2}>
      <Divider my="sm" />
      <Text fz="xs" fw={700} c="dimmed" tt="uppercase" lts={0.8} mb={4}>
        Go to
      </Text>
      {canAdminister(grants) && <NavButton icon={<IconUsers size={16} />} label="Manage Users" onClick={go(paths.manageUser.path)} testId="nav-manage-users" />}
      {canAdminister(grants) && <NavButton icon={<IconBrandAsana size={16} />} label="Manage Brands" onClick={go(paths.manageBrand.path)} testId="nav-manage-brands" />}
      {canAdminister(grants) && <NavButton icon={<IconCalendarEvent size={16} />} label="Manage Releases" onClick={go(paths.manageRelease.path)} testId="nav-manage-releases" />}
      <NavButton
        icon={<IconChartBar size={16} />}
        label="Statistics"
        onClick={() => navigate(statisticsUrl(selection.monthId!, selection.brand, selection.collection))}
        disabled={!statisticsReady}
        disabledReason="Choose a month and a brand first"
        testId="nav-statistics"
      />
      {canExportAny(grants) && <NavButton icon={<IconFileExport size={16} />} label="Export" onClick={go(paths.export.path)} testId="nav-export" />}
      {canImportAny(grants) && <NavButton icon={<IconDatabaseImport size={16} />} label="Import Data" onClick={go(paths.upload.path)} testId="nav-import" />}
      {disco && (
        <NavButton
          icon={<IconCircleOff size={16} />}
          label="DISCO/REMOVED AREA"
          onClick={go(paths.discoRemoveArea.path)}
          testId="nav-disco"
          bells={
            <>
              {(badges.data?.numDisco ?? 0) > 0 && <Bell color="red" label={`${countText(badges.data!.numDisco)} discontinued SKUs in modules`} testId="bell-disco" />}
              {(badges.data?.numRemoved ?? 0) > 0 && <Bell color="orange" label={`${countText(badges.data!.numRemoved)} removed SKUs in modules`} testId="bell-removed" />}
            </>
          }
        />
      )}
      <NavButton
        icon={<IconHourglassHigh size={16} />}
        label="Pending Area"
        onClick={go(paths.pendingArea.path)}
        testId="nav-pending"
        bells={(pending.data ?? 0) > 0 ? <Bell color="red" label={`${pending.data} items waiting for work in the Pending Area`} testId="bell-pending" /> : null}
      />
      {(admin || hasType(grants, 'edit')) && (
        <NavButton
          icon={<IconEdit size={16} />}
          label="Massive Edit"
          onClick={() => {
            clearMassiveEditRows();
            navigate(paths.massiveEdit.path);
          }}
          testId="nav-massive-edit"
        />
      )}
      <NavButton icon={<IconTags size={16} />} label="Client classification" onClick={onOpenClassifications} testId="nav-classifications" />
      <NavButton icon={<IconTrash size={16} />} label="Deletion Area" onClick={go(paths.deletionArea.path)} testId="nav-deletion" />
      <NavButton icon={<IconCircleCheck size={16} />} label="Approve cluster" onClick={go(paths.approveCluster.path)} testId="nav-approve-cluster" />
      <NavButton icon={<IconChecklist size={16} />} label="History" onClick={go(paths.history.path)} testId="nav-history" />
    </Stack>
  );
}
