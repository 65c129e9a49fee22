import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { moduleKeyString } from '@bo/shared/item-keys';
import type { DiscontinuedModule } from '@bo/shared/cluster-editor';
import { moduleHref } from './module-chip';

/** Modules of the open clusters that hold discontinued SKUs, each linking to the module route. */
export function DiscontinuedTable({ rows }: { rows: DiscontinuedModule[] }) {
  return (
    <Paper withBorder radius="md" p="md" shadow="xs" data-testid="discontinued-table">
      <Title order={5} mb="xs">
        Modules with discontinued SKUs
      </Title>
      {rows.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No discontinued SKUs in the open clusters.
        </Text>
      ) : (
        <Table fz="xs" striped highlightOnHover withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Module</Table.Th>
              <Table.Th>Family</Table.Th>
              <Table.Th ta="right">Disco SKU</Table.Th>
              <Table.Th>Clusters</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={moduleKeyString(r)}>
                <Table.Td>
                  <Anchor href={moduleHref(r)} target="_blank" rel="noopener" fz="xs">
                    {r.moduleLabel}
                  </Anchor>
                </Table.Td>
                <Table.Td>{r.macroFamily}</Table.Td>
                <Table.Td ta="right">{r.discoSkuCount}</Table.Td>
                <Table.Td>{r.clusterIds.join(', ')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
