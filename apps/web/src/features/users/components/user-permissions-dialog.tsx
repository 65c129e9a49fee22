import { Alert, Divider, Group, Select, Stack, Tabs, Text } from '@mantine/core';
import { FormActions } from '@/components/ui/form-actions';
import { LevelTabs } from '@/components/ui/level-tabs';
import { PERMISSION_TYPES, type PermissionType, ROLES } from '@bo/shared/grants';
import {
  describePairingProblem,
  type GrantRowLike,
  grantRowKey,
  pairingProblems,
  PAIRING_RULE,
  setAllGrants,
  withImpliedView,
} from '@bo/shared/user-grants';
import { type Role, type User, USER_TEXTS } from '@bo/shared/users';
import { IconAlertTriangle, IconInfoCircle, IconShieldCheck } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { flash } from '@/components/ui/flash';
import { StatusBadge } from '@/components/ui/status-badge';
import { useSession } from '@/lib/session';
import { useBrands } from '@/lib/reference-lists';
import { useRules } from '../api/get-rules';
import { useStarsZones } from '../api/get-stars-zones';
import { useSaveUser } from '../api/save-user';
import { GrantChips } from './grant-chips';
import { type ItemFormProps, itemFormDialog } from '@/components/ui/item-form-dialog';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plain = (g: GrantRowLike): GrantRowLike => ({ grantType: g.grantType, grantCode: g.grantCode, permissionType: g.permissionType });
const sameRows = (a: readonly GrantRowLike[], b: readonly GrantRowLike[]) =>
  a.length === b.length && a.map(grantRowKey).sort().join() === b.map(grantRowKey).sort().join();

/** The permission popup of one user (part 1 §6): role, and grants per level for brands, stars zones and rules. */
export const UserPermissionsDialog = itemFormDialog(
  { keyOf: (u: User) => u.userId, title: 'Permissions', size: 820, testId: 'user-permissions-dialog' },
  PermissionsForm,
);

function PermissionsForm({ item: user, onClose }: ItemFormProps<User>) {
  const brands = useBrands();
  const zones = useStarsZones();
  const rules = useRules();
  const save = useSaveUser();
  const ownEmail = useSession((s) => s.user?.email ?? '');
  const initialRows = useMemo(() => withImpliedView(user.grants.map(plain), plain), [user]);
  const [role, setRole] = useState<Role | null>(user.role);
  const [rows, setRows] = useState<GrantRowLike[]>(initialRows);
  const [level, setLevel] = useState<PermissionType>('view');

  const isSelf = ownEmail.toLowerCase() === user.email.toLowerCase();
  const enabled = user.status === 'Enabled';
  const sentRows = role ? rows : [];
  const problems = role ? pairingProblems(rows) : [];
  const changed = role !== user.role || !sameRows(sentRows, user.grants);
  const canSave = enabled && changed && problems.length === 0 && !save.isPending;

  const set = (grantType: GrantRowLike['grantType'], at: PermissionType) => (codes: readonly string[], on: boolean) =>
    setRows((prev) => setAllGrants(prev, grantType, at, codes, on, plain));

  const submit = () => {
    save.mutate(
      { userId: user.userId, role, grants: sentRows.map((g) => ({ ...g, userId: user.userId })) },
      {
        onSuccess: () => {
          flash(`The grants of ${user.email} have been saved`, 'success');
          onClose();
        },
      },
    );
  };

  const countAt = (at: PermissionType) => rows.filter((r) => r.permissionType === at).length;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Text fw={600} data-testid="permissions-email">
            {user.email}
          </Text>
          <Text fz="sm" c="dimmed">
            {[user.firstName, user.lastName].filter(Boolean).join(' ') || 'Name not set yet'}
            {user.country ? ` · ${user.country}` : ''}
          </Text>
        </div>
        <StatusBadge status={user.status} />
      </Group>

      {!enabled && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="permissions-not-enabled">
          {USER_TEXTS.notEnabled}
        </Alert>
      )}

      <Select
        label="Role"
        description={isSelf ? USER_TEXTS.ownAdminRole : 'A user without a role has no grants.'}
        placeholder="No role"
        data={ROLES.map((r) => ({ value: r, label: r }))}
        value={role}
        onChange={(v) => setRole((v as Role | null) ?? null)}
        clearable={!isSelf}
        disabled={isSelf || !enabled}
        w={320}
        data-testid="permissions-role"
      />

      {role === null && (
        <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} />}>
          {USER_TEXTS.noRoleNoGrants.split(':')[0]}. Choose a role to give grants{user.grants.length > 0 ? '; saving removes the current ones' : ''}.
        </Alert>
      )}
      {role === 'ADMIN' && (
        <Alert color="brand" variant="light" icon={<IconShieldCheck size={18} />}>
          Administrators hold every brand, stars zone, level and rule, whatever the grants below say.
        </Alert>
      )}

      <LevelTabs level={level} onLevelChange={setLevel} count={countAt} tabTestId={(at) => `permissions-tab-${at}`} roundSmallCounts keepMounted={false}>
        {PERMISSION_TYPES.map((at) => (
          <Tabs.Panel key={at} value={at} pt="md">
            <Stack gap="md">
              <Text fz="xs" c="dimmed">
                {at === 'view'
                  ? 'View grants held because of edit or submit are locked: remove the higher level first.'
                  : `Granting ${at} on a brand or stars zone also grants view (not for rules).`}
              </Text>
              <GrantChips
                title="Brands"
                grantType="brand"
                level={at}
                options={(brands.data ?? []).map((b) => ({ code: b.brandCode, description: b.description }))}
                rows={rows}
                disabled={!role || !enabled}
                onSet={set('brand', at)}
              />
              <GrantChips
                title="Stars zones"
                grantType="starszone"
                level={at}
                options={(zones.data ?? []).map((z) => ({ code: z.starsZone, description: z.description }))}
                rows={rows}
                disabled={!role || !enabled}
                onSet={set('starszone', at)}
              />
              <GrantChips
                title="Rules"
                grantType="rule"
                level={at}
                options={(rules.data ?? []).map((r) => ({ code: r.ruleCode, description: r.description }))}
                rows={rows}
                disabled={!role || !enabled}
                onSet={set('rule', at)}
              />
            </Stack>
          </Tabs.Panel>
        ))}
      </LevelTabs>

      {problems.length > 0 && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="These grants cannot be saved" data-testid="permissions-pairing">
          <Text fz="sm">{PAIRING_RULE}.</Text>
          <Stack gap={2} mt={6}>
            {problems.map((p) => (
              <Text key={`${p.level}-${p.missing}`} fz="sm" fw={500}>
                • {capitalise(describePairingProblem(p))}.
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {save.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="permissions-error">
          {save.error.message}
        </Alert>
      )}

      <Divider />
      <FormActions
        gap="sm"
        onCancel={onClose}
        onSubmit={submit}
        busy={save.isPending}
        submitLabel="Save"
        reason={!canSave && (!enabled ? 'The user is disabled: enable them to change their grants' : problems.length > 0 ? 'These grants cannot be saved: see above' : 'No change to save')}
        submitTestId="permissions-save"
      />
    </Stack>
  );
}
