import { useState } from 'react';
import { Badge, Box, Group, Image, Modal, SimpleGrid, Slider, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import { formatDate, formatInteger, formatMonthId, formatNumber, formatPrice } from '@/lib/format';
import { useExtraSellIn } from '../api/get-extra-sell-in';
import { usePublishedProductModules } from '../api/get-published-product-modules';

const VIEWS = [1, 2, 3, 4, 5] as const;
const VIEW_NAMES = ['Front', 'Three-quarter', 'Side', 'Top', 'Folded'];

interface SkuInfoModalProps {
  info: { module: ModuleDto | null; product: ProductDto } | null;
  onClose: () => void;
}

/**
 * SKU info popup: the 360 view (5 pictures; the server draws the 2023-and-later set for newer
 * releases), the SKU's fields, its extra sell-in in this module's month and where it is published.
 */
/** What an empty field of the SKU shows. */
const NONE = '—';

export function SkuInfoModal({ info, onClose }: SkuInfoModalProps) {
  const [view, setView] = useState(1);
  const p = info?.product;
  const m = info?.module;
  const published = usePublishedProductModules(
    p && m ? { monthId: m.monthId, model: p.model, color: p.color, size: p.size, materialCode: p.materialCode, skuCode: p.skuCode } : null,
    p?.upc,
  );
  const extra = useExtraSellIn(p && m ? { moduleName: m.moduleName, monthId: m.monthId, materialCode: p.materialCode, skuCode: p.skuCode } : null, p?.upc);
  if (!p) return null;
  // An empty value reads as a dash, not a blank cell that looks like a fault of the page.
  const rows: [string, React.ReactNode][] = [
    ['UPC', p.upc],
    ['SKU code', p.skuCode],
    ['Material', p.materialCode],
    ['Price (SRP)', formatPrice(p.srp)],
    ['Wholesale', formatPrice(p.whsprice)],
    ['Sell-in / out', `${formatInteger(p.sellIn)} / ${formatInteger(p.sellOut)}`],
    ['Extra sell-in', m ? (extra.data === undefined ? '…' : formatInteger(extra.data)) : ''],
    ['Out of stars', formatInteger(p.outOfStars)],
    ['Ranks (in / out)', `${formatInteger(p.rankSellIn)} / ${formatInteger(p.rankSellOut)}`],
    ['SKU turn', formatNumber(p.skuTurn)],
    ['Door index', formatInteger(p.doorIndex)],
    ['Pty', formatInteger(p.pty)],
    ['Release', formatDate(p.releaseDate)],
    ['Inserted', formatDate(p.insertDate)],
    ['GED expiry', formatDate(p.gedExpireDate)],
    ['Global catalogue', p.globalCatalogue],
    ['SAP status', p.sapStatus ?? ''],
  ];
  return (
    <Modal opened={!!info} onClose={onClose} size="xl" centered title={<Text fw={700}>{`${p.model} ${p.color} ${p.size}`}</Text>}>
      <SimpleGrid cols={2} spacing="lg">
        <Stack gap="xs">
          <Box bg="gray.0" style={{ borderRadius: 8 }} p="xs" data-testid="sku-360">
            <Image src={`/data/images/${p.upc}/${view}.png?width=480`} alt={`${VIEW_NAMES[view - 1]} view`} h={240} fit="contain" />
          </Box>
          <Slider min={1} max={5} step={1} value={view} onChange={setView} label={(v) => VIEW_NAMES[v - 1]} aria-label="360 view" thumbLabel="360 view" marks={VIEWS.map((v) => ({ value: v }))} />
          <Group gap={6} justify="center" mt="xs">
            {VIEWS.map((v) => (
              <UnstyledButton key={v} onClick={() => setView(v)} aria-label={`${VIEW_NAMES[v - 1]} view`} style={{ border: `2px solid ${v === view ? 'var(--mantine-color-brand-6)' : 'transparent'}`, borderRadius: 6 }}>
                <img src={`/data/images/${p.upc}/${v}.png?width=96`} width={56} height={38} alt="" style={{ display: 'block', objectFit: 'contain' }} />
              </UnstyledButton>
            ))}
          </Group>
          <Group gap={4}>
            {p.flagDisco && <Badge color="red">Discontinued</Badge>}
            {p.flagN && <Badge color="teal">Newness</Badge>}
            {p.polar && <Badge color="violet">Polarised</Badge>}
            {(p.sapStatus === 'Z' || p.sapStatus === 'I') && <Badge color="dark">Disabled in SAP</Badge>}
          </Group>
        </Stack>
        <Stack gap="sm">
          <Table fz="xs" verticalSpacing={3} withRowBorders={false}>
            <Table.Tbody>
              {rows.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Td c="dimmed" w={130}>
                    {k}
                  </Table.Td>
                  <Table.Td fw={500}>{v === '' || v === null || v === undefined ? NONE : v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {m && (
            <Box>
              <Text fz="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
                Published in {formatMonthId(m.monthId)}
              </Text>
              {published.isLoading ? (
                <Text fz="xs">…</Text>
              ) : (published.data ?? []).length === 0 ? (
                <Text fz="xs" c="dimmed">
                  Not published in any module this month
                </Text>
              ) : (
                (published.data ?? []).map((x) => (
                  <Text key={x.moduleName} fz="xs">
                    {x.moduleLabel} ({x.moduleName}) · {x.mustHave ? 'MH' : 'EL'}
                    {x.publicationDate ? ` · ${formatDate(x.publicationDate)}` : ''}
                  </Text>
                ))
              )}
            </Box>
          )}
        </Stack>
      </SimpleGrid>
    </Modal>
  );
}
