import { Badge, Button, Chip, Switch, Text, Tooltip } from '@mantine/core';
import { type User, USER_TEXTS, type UserStatus } from '@bo/shared/users';
import { IconKey } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { DataTableColumn } from '@/components/ui/data-table';
import { flash } from '@/components/ui/flash';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableCount, TablePanel } from '@/components/ui/table-panel';
import { matchesText, SearchBox, SegmentFilter } from '@/components/ui/table-toolbar';
import { useSession } from '@/lib/session';
import { useDisableUser } from '../api/disable-user';
import { useEnableUser } from '../api/enable-user';
import { useUsers } from '../api/get-users';
import { useUsersWithoutGrants } from '../api/get-users-without-grants';
import { UserPermissionsDialog } from './user-permissions-dialog';

type StatusFilter = 'all' | UserStatus;
const STATUS_OPTIONS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'Enabled', label: 'Enabled' },
  { value: 'Disabled', label: 'Disabled' },
  { value: 'New', label: 'New' },
];

/** '2 brands · 3 zones · 1 rule', or null without any. */
function grantSummary(user: User): string | null {
  const count = (type: string) => new Set(user.grants.filter((g) => g.grantType === type).map((g) => g.grantCode)).size;
  const parts = [
    [count('brand'), 'brand', 'brands'],
    [count('starszone'), 'zone', 'zones'],
    [count('rule'), 'rule', 'rules'],
  ] as const;
  const text = parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`)
    .join(' · ');
  return text || null;
}

function StatusSwitch({ user }: { user: User }) {
  const enable = useEnableUser();
  const disable = useDisableUser();
  const ownEmail = useSession((s) => s.user?.email ?? '');
  const isSelf = ownEmail.toLowerCase() === user.email.toLowerCase();
  const pending = enable.isPending || disable.isPending;
  const toggle = (on: boolean) => {
    const mutation = on ? enable : disable;
    mutation.mutate(user.userId, {
      onSuccess: (answer) => flash(`${user.email} is now ${answer.status.toLowerCase()}`, 'success'),
    });
  };
  const control = (
    <Switch
      checked={user.status === 'Enabled'}
      onChange={(e) => toggle(e.currentTarget.checked)}
      disabled={pending || (isSelf && user.status === 'Enabled')}
      aria-label={`${user.status === 'Enabled' ? 'Disable' : 'Enable'} ${user.email}`}
      size="md"
      data-testid={`status-switch-${user.email}`}
    />
  );
  return isSelf ? (
    <Tooltip label={USER_TEXTS.ownAccount}>
      <span>{control}</span>
    </Tooltip>
  ) : (
    control
  );
}

/** The users table (part 1 §2 Manage Users): search by e-mail, status filter, enable toggle, permission popup. */
export function UsersTable() {
  const users = useUsers();
  const withoutGrants = useUsersWithoutGrants();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [onlyWithoutGrants, setOnlyWithoutGrants] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);

  const noGrantIds = useMemo(() => new Set((withoutGrants.data ?? []).map((u) => u.userId)), [withoutGrants.data]);
  const rows = useMemo(
    () =>
      (users.data ?? []).filter(
        (u) => matchesText(u.email, search) && (status === 'all' || u.status === status) && (!onlyWithoutGrants || noGrantIds.has(u.userId)),
      ),
    [users.data, search, status, onlyWithoutGrants, noGrantIds],
  );

  const columns: DataTableColumn<User>[] = [
    {
      key: 'email',
      header: 'E-mail',
      render: (u) => (
        <div>
          <Text fz="sm" fw={500}>
            {u.email}
          </Text>
          <Text fz="xs" c="dimmed">
            {[u.firstName, u.lastName].filter(Boolean).join(' ') || '—'}
          </Text>
        </div>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      width: 130,
      render: (u) =>
        u.role ? (
          <Badge variant="outline" color={u.role === 'ADMIN' ? 'brand' : 'gray'} radius="sm">
            {u.role}
          </Badge>
        ) : (
          <Text fz="sm" c="dimmed">
            No role
          </Text>
        ),
    },
    { key: 'country', header: 'Country', width: 90, render: (u) => <Text fz="sm">{u.country ?? '—'}</Text> },
    {
      key: 'grants',
      header: 'Grants',
      render: (u) => {
        if (u.role === 'ADMIN') return <Text fz="sm">Everything</Text>;
        const summary = grantSummary(u);
        return noGrantIds.has(u.userId) ? (
          <Text fz="sm" c="red.9">
            {summary ? `${summary} · no access yet` : 'No grants'}
          </Text>
        ) : (
          <Text fz="sm">{summary}</Text>
        );
      },
    },
    { key: 'status', header: 'Status', width: 130, render: (u) => <StatusBadge status={u.status} /> },
    { key: 'enabled', header: 'Enabled', width: 100, render: (u) => <StatusSwitch user={u} /> },
    {
      key: 'actions',
      header: '',
      width: 150,
      align: 'right',
      render: (u) => (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconKey size={14} />}
          onClick={() => setEditing(u)}
          data-testid={`permissions-${u.email}`}
        >
          Permissions
        </Button>
      ),
    },
  ];

  return (
    <TablePanel
      actions={<TableCount count={users.data?.length} noun="users" />}
      filters={
        <>
          <SearchBox value={search} onChange={setSearch} placeholder="Search by e-mail" label="Search by e-mail" />
          <SegmentFilter value={status} onChange={setStatus} options={STATUS_OPTIONS} label="Status" />
          <Chip checked={onlyWithoutGrants} onChange={setOnlyWithoutGrants} variant="light" color="orange" data-testid="filter-no-grants">
            Without grants ({noGrantIds.size})
          </Chip>
        </>
      }
      table={{
        label: 'Users',
        data: rows,
        columns,
        getRowKey: (u) => u.userId,
        loading: users.isPending,
        resetPageKey: JSON.stringify([search, status, onlyWithoutGrants]),
        emptyMessage: users.data?.length ? 'No users match the search.' : 'There are no users yet.',
        rowTestId: (u) => `user-row-${u.email}`,
      }}
    >
      <UserPermissionsDialog item={editing} onClose={() => setEditing(null)} />
    </TablePanel>
  );
}
