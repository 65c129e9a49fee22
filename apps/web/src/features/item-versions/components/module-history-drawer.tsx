import { Alert, Badge, Group, ScrollArea, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { ModuleVersionContent, ModuleVersionDetail } from '@bo/shared/item-versions';
import type { ProductDto } from '@bo/shared/modules';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { formatNumber } from '@/lib/format';
import { findSku } from '../api/find-skus';
import { getModuleHistory } from '../api/get-module-history';
import { getModuleVersion } from '../api/get-module-version';
import { compareModuleContents, moduleCompareSummary, moduleContentOf, restoreModuleVersion, upcsToFetch, type LineChange, type SkippedSku } from '../logic/compare';
import { HistoryDrawer, useVersionBrowser, VersionBrowser } from './version-browser';
import type { ModuleHistorySlotProps as ModuleHistoryProps } from '@/components/editor/history-slots';

const CHANGE_LABELS: Record<LineChange, string> = { added: 'added', removed: 'removed', mhToEl: 'MH → EL', elToMh: 'EL → MH', min: 'min value', same: '' };
const CHANGE_COLORS: Record<LineChange, string> = { added: 'teal', removed: 'red', mhToEl: 'orange', elToMh: 'orange', min: 'blue', same: 'gray' };

const SKIPPED_TEXTS: Record<SkippedSku['reason'], string> = {
  missing: 'no longer exists',
  discontinued: 'is discontinued now',
  notFound: 'is not among the SKUs of the module’s brand and collection',
};

/** The History panel of a module card: versions, a side-by-side comparison, "Restore this version". */
export function ModuleHistoryDrawer(props: ModuleHistoryProps) {
  const { opened, onClose, item } = props;
  return (
    <HistoryDrawer opened={opened} onClose={onClose} label={item.moduleLabel} itemKey={item.moduleName} monthId={item.monthId}>
      <ModuleHistoryBody {...props} />
    </HistoryDrawer>
  );
}

function ModuleHistoryBody({ item, products, description, canRestore, onRestore, onClose }: ModuleHistoryProps) {
  const key = { moduleName: item.moduleName, monthId: item.monthId };
  const [restoring, setRestoring] = useState(false);
  const current = useMemo(() => moduleContentOf(products, description), [products, description]);
  const browser = useVersionBrowser<ModuleVersionContent, ModuleVersionDetail>(
    {
      kind: 'module',
      itemKey: item.moduleName,
      monthId: item.monthId,
      getHistory: (page, signal) => getModuleHistory(key, page, signal),
      getVersion: (n, signal) => getModuleVersion(key, n, signal),
    },
    current,
  );
  const { selected, left, otherVersion, rightContent } = browser;
  const rows = useMemo(() => (left.data && rightContent ? compareModuleContents(left.data.content, rightContent) : null), [left.data, rightContent]);
  const labels = useMemo(() => new Map(products.map((p) => [p.upc, `${p.model} ${p.color} ${p.size}`])), [products]);
  const rightTitle = otherVersion === null ? 'On screen' : `Version ${otherVersion}`;

  const restore = async (detail: ModuleVersionDetail) => {
    setRestoring(true);
    try {
      const wanted = upcsToFetch(products, detail);
      const found = await Promise.all(
        wanted.map((upc) =>
          findSku({ upc, monthId: item.monthId, brand: item.brand, collection: item.collection })
            .then((a): ProductDto | null => {
              const hit = a.productDtoList.find((p) => p.upc === upc);
              if (!hit) return null;
              const { brand: _brand, collection: _collection, ...dto } = hit;
              return dto;
            })
            .catch(() => null),
        ),
      );
      const { products: restored, skipped } = restoreModuleVersion(products, detail, found.filter((p): p is ProductDto => p !== null));
      onRestore({ products: restored, description: detail.content.moduleDescription ?? description, revertOf: detail.entry.version });
      onClose();
      flash(`Version ${detail.entry.version} loaded as unsaved changes: Save keeps it, Undo takes it back.`, 'info', { title: 'Version restored' });
      if (skipped.length)
        showMessagePopup(
          'Not restored',
          skipped.map((s) => `SKU ${labels.get(s.upc) ? `${labels.get(s.upc)} (${s.upc})` : s.upc} ${SKIPPED_TEXTS[s.reason]}: it is not restored.`),
          'orange',
        );
    } finally {
      setRestoring(false);
    }
  };

  const flagOf = (upc: string, d: ModuleVersionDetail | undefined) =>
    d?.flags.missing.includes(upc) ? 'missing' : d?.flags.discontinued.includes(upc) ? 'discontinued' : null;

  return (
    <VersionBrowser
      browser={browser}
      onScreenLabel="The composition on screen"
      readOnlyTitle="The module is read-only for you"
      canRestore={canRestore}
      restoring={restoring}
      onRestore={(detail) => void restore(detail)}
      summary={rows ? moduleCompareSummary(rows) : null}
    >
      {left.data && (left.data.flags.missing.length > 0 || left.data.flags.discontinued.length > 0) && (
        <Alert color="orange" variant="light" p="xs" data-testid="version-flags">
          <Text fz="xs">
            {left.data.flags.missing.length > 0 && `${left.data.flags.missing.length} SKU(s) of version ${selected} no longer exist. `}
            {left.data.flags.discontinued.length > 0 && `${left.data.flags.discontinued.length} SKU(s) are discontinued now. `}
            They are marked below: a restore keeps those on screen now and does not bring the others back.
          </Text>
        </Alert>
      )}
      <ScrollArea.Autosize mah="calc(100vh - 520px)" type="auto" offsetScrollbars>
        <Table fz="xs" verticalSpacing={3} striped data-testid="compare-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>SKU</Table.Th>
              <Table.Th w={130}>Version {selected}</Table.Th>
              <Table.Th w={130}>{rightTitle}</Table.Th>
              <Table.Th w={100}>Change</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows?.map((r) => {
              const flag = flagOf(r.upc, left.data);
              return (
                <Table.Tr key={r.upc} data-testid="compare-row" data-upc={r.upc} data-change={r.change} data-flag={flag ?? undefined}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text fz="xs" ff="monospace">
                        {r.upc}
                      </Text>
                      {labels.get(r.upc) && (
                        <Text fz="xs" c="dimmed" truncate>
                          {labels.get(r.upc)}
                        </Text>
                      )}
                      {flag && (
                        <Badge size="xs" color="red" variant="filled" tt="none">
                          {flag === 'missing' ? 'no longer exists' : 'discontinued'}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{side(r.left, r.leftMin)}</Table.Td>
                  <Table.Td>{side(r.right, r.rightMin)}</Table.Td>
                  <Table.Td>
                    {r.change !== 'same' && (
                      <Badge size="xs" variant="light" color={CHANGE_COLORS[r.change]} tt="none">
                        {CHANGE_LABELS[r.change]}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </VersionBrowser>
  );
}

const side = (cls: 'MH' | 'EL' | null, min: number | null) =>
  cls === null ? (
    <Text fz="xs" c="dimmed">
      —
    </Text>
  ) : (
    <Text fz="xs">
      <b>{cls}</b>
      {min !== null ? ` · min ${formatNumber(min)}` : ''}
    </Text>
  );
