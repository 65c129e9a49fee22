import { Alert, Badge, Checkbox, Divider, Group, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { FormActions } from '@/components/ui/form-actions';
import { LevelTabs } from '@/components/ui/level-tabs';
import {
  BRAND_TEXTS,
  brandHolderCounts,
  type BrandWithUsers,
  GRANTS_MESSAGE_MS,
  isViewRequired,
  type PermissionMap,
  setPermission,
  setPermissionForAll,
} from '@bo/shared/brands';
import { PERMISSION_TYPES, type PermissionType } from '@bo/shared/grants';
import { describePairingProblem, pairingProblems } from '@bo/shared/user-grants';
import type { User } from '@bo/shared/users';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { flash } from '@/components/ui/flash';
import { matchesText, SearchBox } from '@/components/ui/table-toolbar';
import { useCreators } from '../api/get-creators';
import { useSaveBrandGrants } from '../api/save-brand-grants';
import { type ItemFormProps, itemFormDialog } from '@/components/ui/item-form-dialog';

const sameMap = (a: PermissionMap, b: PermissionMap) => PERMISSION_TYPES.every((l) => [...a[l]].sort().join() === [...b[l]].sort().join());

/** The user's grants if this brand's levels were `levels` (what the server checks the pairing rule on). */
function grantsWith(user: User, brand: string, levels: readonly PermissionType[]) {
  const others = user.grants.filter((g) => !(g.grantType === 'brand' && g.grantCode === brand));
  return [...others, ...levels.map((permissionType) => ({ grantType: 'brand' as const, grantCode: brand, permissionType }))];
}

const hasZonesAt = (user: User, level: PermissionType) => user.grants.some((g) => g.grantType === 'starszone' && g.permissionType === level);

/** The per-brand permission popup (part 1 §6): view, edit and submit for many users at once. */
export const BrandPermissionsDialog = itemFormDialog(
  { keyOf: (b: BrandWithUsers) => b.brand, title: 'Brand permissions', size: 720, testId: 'brand-permissions-dialog' },
  BrandPermissionsForm,
);

function BrandPermissionsForm({ item: brand, onClose }: ItemFormProps<BrandWithUsers>) {
  const creators = useCreators();
  const save = useSaveBrandGrants();
  const [map, setMap] = useState<PermissionMap>(brand.permissionMap);
  const [level, setLevel] = useState<PermissionType>('view');
  const [search, setSearch] = useState('');

  const users = useMemo(() => creators.data ?? [], [creators.data]);
  const listed = new Set(users.map((u) => u.userId));
  // The list's rule (brandHolderCounts) on the map being edited: unchanged, the same numbers as the list.
  const counts = brandHolderCounts(map, listed);
  const others = new Set(PERMISSION_TYPES.flatMap((l) => brand.permissionMap[l]).filter((id) => !listed.has(id)));
  const changed = !sameMap(map, brand.permissionMap);

  const problems = useMemo(
    () =>
      users.flatMap((u) => {
        const levels = PERMISSION_TYPES.filter((l) => map[l].includes(u.userId));
        const before = PERMISSION_TYPES.filter((l) => brand.permissionMap[l].includes(u.userId));
        if (levels.join() === before.join()) return [];
        const found = pairingProblems(grantsWith(u, brand.brand, levels));
        return found.length ? [`${u.email}: ${found.map(describePairingProblem).join('; ')}`] : [];
      }),
    [users, map, brand],
  );

  /** Why a user's box at `at` cannot be changed, or null. */
  const blocked = (u: User, at: PermissionType): string | null => {
    if (at === 'view' && isViewRequired(map, u.userId)) return 'Needed by edit or submit';
    if (!map[at].includes(u.userId) && !hasZonesAt(u, at)) return `No stars zones at ${at}: give them in Manage Users first`;
    return null;
  };

  const shown = users.filter((u) => matchesText(u.email, search));
  const selectable = (at: PermissionType) => shown.filter((u) => blocked(u, at) === null);

  const submit = () => {
    save.mutate(
      { brand: brand.brand, description: brand.description, permissionMap: map },
      {
        onSuccess: () => {
          flash(BRAND_TEXTS.updated, 'success', { autoClose: GRANTS_MESSAGE_MS });
          onClose();
        },
        onError: (error) => flash(error.message, 'error', { title: BRAND_TEXTS.failed, autoClose: GRANTS_MESSAGE_MS }),
      },
    );
  };

  return (
    <Stack gap="md">
      <Group gap="sm">
        <Badge size="lg" radius="sm" variant="filled">
          {brand.brand}
        </Badge>
        <Text fw={600} data-testid="brand-permissions-name">
          {brand.description}
        </Text>
      </Group>

      <LevelTabs level={level} onLevelChange={setLevel} count={(at) => counts[at]} tabTestId={(at) => `brand-tab-${at}`} countTestId={(at) => `brand-tab-${at}-count`} />

      <Group justify="space-between">
        <SearchBox value={search} onChange={setSearch} placeholder="Search users by e-mail" label="Search users" />
        <Text fz="xs" c="dimmed" maw={300} ta="right">
          {level === 'view' ? 'View held because of edit or submit cannot be removed.' : `Giving ${level} also gives view.`}
        </Text>
      </Group>

      <Stack gap={0} style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)' }}>
        <Group px="md" py="sm" bg="gray.0" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          {(() => {
            const candidates = selectable(level);
            const checked = candidates.filter((u) => map[level].includes(u.userId)).length;
            return (
              <Checkbox
                label={<Text fz="sm" fw={600}>Select all</Text>}
                checked={candidates.length > 0 && checked === candidates.length}
                indeterminate={checked > 0 && checked < candidates.length}
                disabled={candidates.length === 0}
                onChange={(e) => setMap((m) => setPermissionForAll(m, candidates.map((u) => u.userId), level, e.currentTarget.checked))}
                data-testid={`brand-select-all-${level}`}
              />
            );
          })()}
        </Group>
        <ScrollArea.Autosize mah={340} type="auto">
          {shown.length === 0 && (
            <Text c="dimmed" fz="sm" p="md">
              {creators.isPending ? 'Loading users…' : 'No users found.'}
            </Text>
          )}
          {shown.map((u) => {
            const reason = blocked(u, level);
            const box = (
              <Checkbox
                checked={map[level].includes(u.userId)}
                disabled={reason !== null}
                onChange={(e) => setMap((m) => setPermission(m, u.userId, level, e.currentTarget.checked))}
                label={
                  <Group gap={8} wrap="nowrap">
                    <Text fz="sm">{u.email}</Text>
                    <Badge size="xs" variant="outline" color="gray" radius="sm">
                      {u.role}
                    </Badge>
                  </Group>
                }
                description={reason ?? ([u.firstName, u.lastName].filter(Boolean).join(' ') || undefined)}
                data-testid={`brand-user-${level}-${u.email}`}
              />
            );
            return (
              <Group key={u.userId} px="md" py={10} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                {reason ? (
                  <Tooltip label={reason} withArrow position="top-start">
                    <span>{box}</span>
                  </Tooltip>
                ) : (
                  box
                )}
              </Group>
            );
          })}
        </ScrollArea.Autosize>
      </Stack>

      {others.size > 0 && (
        <Text fz="xs" c="dimmed">
          <IconInfoCircle size={12} style={{ verticalAlign: -1 }} /> {others.size} more {others.size === 1 ? 'user holds' : 'users hold'} this brand
          (disabled users or administrators): their grants are kept.
        </Text>
      )}
      {problems.length > 0 && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Brand and stars zone grants must stay paired" data-testid="brand-pairing">
          <Stack gap={2}>
            {problems.map((p) => (
              <Text key={p} fz="sm">
                {p}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}

      <Divider />
      <FormActions
        gap="sm"
        onCancel={onClose}
        onSubmit={submit}
        busy={save.isPending}
        submitLabel="Save"
        reason={problems.length > 0 ? 'These permissions cannot be saved: see above' : !changed && 'No change to save'}
        submitTestId="brand-permissions-save"
      />
    </Stack>
  );
}
