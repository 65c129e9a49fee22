import { Badge, Button, Text } from '@mantine/core';
import { BRAND_TEXTS, type BrandWithUsers } from '@bo/shared/brands';
import { PERMISSION_TYPES } from '@bo/shared/grants';
import { IconUsers } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { DataTableColumn } from '@/components/ui/data-table';
import { LEVEL_LABELS } from '@/components/ui/level-tabs';
import { TableCount, TablePanel } from '@/components/ui/table-panel';
import { matchesText, SearchBox } from '@/components/ui/table-toolbar';
import { useBrandsWithUsers } from '../api/get-brands-with-users';
import { BrandPermissionsDialog } from './brand-permissions-dialog';

/** Manage Brands (part 1 §2): the brands sorted by brand, searchable, each with its permission popup. */
export function BrandsList() {
  const brands = useBrandsWithUsers();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<string | null>(null);

  const rows = useMemo(
    () =>
      [...(brands.data ?? [])]
        .sort((a, b) => a.brand.localeCompare(b.brand))
        .filter((b) => matchesText(b.brand, search) || matchesText(b.description, search)),
    [brands.data, search],
  );
  // The popup reads the brand from the latest list, so a save elsewhere never shows stale holders.
  const current = brands.data?.find((b) => b.brand === editing) ?? null;

  const columns: DataTableColumn<BrandWithUsers>[] = [
    {
      key: 'brand',
      header: 'Brand',
      width: 120,
      render: (b) => (
        <Badge variant="light" radius="sm" size="lg">
          {b.brand}
        </Badge>
      ),
    },
    { key: 'description', header: 'Description', render: (b) => <Text fz="sm" fw={500}>{b.description}</Text> },
    ...PERMISSION_TYPES.map(
      (level): DataTableColumn<BrandWithUsers> => ({
        key: level,
        header: LEVEL_LABELS[level],
        width: 110,
        align: 'center',
        render: (b) => (
          // The server's count (brandHolderCounts): the same number as the popup's tab.
          <Text fz="sm" c={b.holderCounts[level] ? undefined : 'dimmed'} data-testid={`brand-${b.brand}-${level}-count`}>
            {b.holderCounts[level]} {b.holderCounts[level] === 1 ? 'user' : 'users'}
          </Text>
        ),
      }),
    ),
    {
      key: 'actions',
      header: '',
      width: 150,
      align: 'right',
      render: (b) => (
        <Button size="xs" variant="light" leftSection={<IconUsers size={14} />} onClick={() => setEditing(b.brand)} data-testid={`brand-permissions-${b.brand}`}>
          Permissions
        </Button>
      ),
    },
  ];

  return (
    <TablePanel
      actions={<TableCount count={brands.data?.length} noun="brands" />}
      filters={<SearchBox value={search} onChange={setSearch} placeholder="Search brands" label="Search brands" />}
      table={{ label: 'Brands', data: rows, columns, getRowKey: (b) => b.brand, loading: brands.isPending, pageSize: 15, resetPageKey: search, emptyMessage: BRAND_TEXTS.empty, rowTestId: (b) => `brand-row-${b.brand}` }}
    >
      <BrandPermissionsDialog item={current} onClose={() => setEditing(null)} />
    </TablePanel>
  );
}
