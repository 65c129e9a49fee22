import { moduleKeyString } from '@bo/shared/item-keys';
import { Alert, Badge, Button, Group, Loader, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconReplace } from '@tabler/icons-react';
import { useState } from 'react';
import { DISCO_TEXTS, type DiscoRow, type ReplacementUsage } from '@bo/shared/disco-area';
import { ApiError } from '@/lib/api-error';
import { formatInteger, formatMonthId, formatNumber, formatPrice } from '@/lib/format';
import { useReplacementProposals } from '../api/get-replacement-proposals';

/**
 * Guided replacement (beyond the spec; docs/disco-area.md): a discontinued SKU's proposals (same brand,
 * macro family and collection, still active; closest price, then best sell-out over the rolling window)
 * and its lines that a replacement changes. Choosing one and "Replace in all open months" hands the
 * Massive Edit rows to /massive-edit-wi for preview and apply (`onReplace`).
 */
export function ReplacementModal({ row, onClose, onReplace }: { row: DiscoRow | null; onClose: () => void; onReplace: (newUpc: string, usages: ReplacementUsage[]) => void }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const query = useReplacementProposals(row?.upc ?? null);
  const data = query.data;
  const close = () => {
    setChosen(null);
    onClose();
  };
  return (
    <Modal opened={row !== null} onClose={close} title={<Text fw={650}>Replace SKU {row?.upc}</Text>} size="xl" centered radius="lg" data-testid="replacement-modal">
      {query.isPending ? (
        <Group justify="center" p="xl">
          <Loader />
        </Group>
      ) : query.isError ? (
        <Alert color="red" variant="light">
          {query.error instanceof ApiError ? query.error.message : 'The proposals could not be loaded.'}
        </Alert>
      ) : data ? (
        <Stack gap="md">
          <Text fz="sm">
            {data.sku.model} {data.sku.colorDescription} ({data.sku.color}) size {data.sku.size} · {formatPrice(data.sku.srp)} · {data.sku.brandCode} {data.sku.collection} ·{' '}
            {data.sku.macroFamilies.join(', ')}
          </Text>
          <Stack gap={4}>
            <Text fz="sm" fw={600}>
              Proposals
            </Text>
            <Text fz="xs" c="dimmed">
              Same brand, macro family and collection, not discontinued; closest price first, then best sell-out over{' '}
              {data.rollingMonths.length ? `${formatMonthId(data.rollingMonths[0]!)} – ${formatMonthId(data.rollingMonths[data.rollingMonths.length - 1]!)}` : 'the last months'}.
            </Text>
          </Stack>
          {data.proposals.length === 0 ? (
            <Alert color="orange" variant="light" data-testid="replacement-none">
              {DISCO_TEXTS.noProposal}
            </Alert>
          ) : (
            <Radio.Group value={chosen} onChange={setChosen} aria-label="Replacement">
              <Table verticalSpacing={6} highlightOnHover data-testid="replacement-proposals">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={36} />
                    <Table.Th>UPC</Table.Th>
                    <Table.Th>MODEL</Table.Th>
                    <Table.Th>COLOUR</Table.Th>
                    <Table.Th>SIZE</Table.Th>
                    <Table.Th ta="right">PRICE</Table.Th>
                    <Table.Th ta="right">SELL-OUT</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.proposals.map((p) => (
                    <Table.Tr key={p.upc} onClick={() => setChosen(p.upc)} style={{ cursor: 'pointer' }} data-testid={`proposal-${p.upc}`}>
                      <Table.Td>
                        <Radio value={p.upc} aria-label={`Choose ${p.upc}`} />
                      </Table.Td>
                      <Table.Td ff="monospace">{p.upc}</Table.Td>
                      <Table.Td>{p.model}</Table.Td>
                      <Table.Td>
                        {p.colorDescription} ({p.color})
                      </Table.Td>
                      <Table.Td>
                        {p.size}
                        {p.alreadyIn > 0 && (
                          <Badge ml={8} size="xs" variant="light" color="yellow" style={{ minWidth: 'max-content' }}>
                            already in {p.alreadyIn} of {data.usages.length}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{formatPrice(p.srp)}</Table.Td>
                      <Table.Td ta="right">{formatInteger(p.sellOut)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Radio.Group>
          )}
          <Text fz="sm" fw={600}>
            Where it is used (modules of open months you may edit)
          </Text>
          {data.usages.length === 0 ? (
            <Text fz="sm" c="dimmed" data-testid="replacement-no-usage">
              {DISCO_TEXTS.noUsage}
            </Text>
          ) : (
            <Table verticalSpacing={4} data-testid="replacement-usages">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>MODULE</Table.Th>
                  <Table.Th>MONTH</Table.Th>
                  <Table.Th>STATUS</Table.Th>
                  <Table.Th ta="right">MIN VALUE</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.usages.map((u) => (
                  <Table.Tr key={moduleKeyString(u)}>
                    <Table.Td>
                      {u.moduleLabel}{' '}
                      <Text span fz="xs" c="dimmed">
                        {u.moduleName}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatMonthId(u.monthId)}</Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={u.mustHave ? 'blue' : 'gray'}>
                        {u.mustHave ? 'MH' : 'EL'}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(u.minValue, 1)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <DisabledReason reason={data.usages.length === 0 ? DISCO_TEXTS.noUsage : !chosen && 'Choose a replacement first'}>
              <Button leftSection={<IconReplace size={16} />} onClick={() => chosen && onReplace(chosen, data.usages)} data-testid="replace-all">
                {DISCO_TEXTS.replaceAll}
              </Button>
            </DisabledReason>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
