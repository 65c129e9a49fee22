import { Badge, Box, Button, Grid, Group, Loader, Paper, ScrollArea, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { PREVIEW_FO_TYPES, SUGGESTION_TEXTS, type SuggestedCluster } from '@bo/shared/suggested-clusters';
import { formatDate, formatMonthId } from '@/lib/format';
import { useModuleComposition } from '../api/get-module-composition';
import { DecisionButtons } from './decision-buttons';
import { SuggestionStatus } from './suggestion-status';

interface ClusterPreviewProps {
  line: SuggestedCluster;
  onBack: () => void;
  onApprove: (line: SuggestedCluster) => void;
  onReject: (line: SuggestedCluster) => void;
}

/**
 * The read-only 'Viewing cluster' preview: modules (SWITCH / NOT SWITCH) by family and one module's
 * composition. A PENDING suggestion can be decided from here too, with the table's own buttons and questions.
 */
export function ClusterPreview({ line, onBack, onApprove, onReject }: ClusterPreviewProps) {
  const [selected, setSelected] = useState<string | null>(null);
  const shown = line.modules.filter((m) => (PREVIEW_FO_TYPES as readonly string[]).includes(m.foType));
  const families = new Map<string, typeof shown>();
  for (const m of shown) families.set(m.macroFamily ?? 'Other', [...(families.get(m.macroFamily ?? 'Other') ?? []), m]);
  const composition = useModuleComposition(selected && line.monthId ? { moduleName: selected, monthId: line.monthId } : null);

  return (
    <Stack gap="md" data-testid="cluster-preview">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Group gap="sm">
            <Title order={3}>{SUGGESTION_TEXTS.viewing}</Title>
            <SuggestionStatus line={line} />
          </Group>
          <Text c="dimmed" fz="sm">
            {line.assortmentId} · original {line.originalAssortment} · {line.country} · {line.brandCode ?? '–'} {line.collection ?? ''} · {line.monthId ? formatMonthId(line.monthId) : line.period}
          </Text>
          <Text c="dimmed" fz="sm">
            Suggested by {line.userSuggest} on {formatDate(line.dateSuggest)}
          </Text>
        </div>
        <Group gap="sm" wrap="nowrap" data-testid="preview-actions">
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
            Back
          </Button>
          <DecisionButtons line={line} onApprove={onApprove} onReject={onReject} />
        </Group>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="md" radius="md">
            <Stack gap="sm">
              {shown.length === 0 ? <Text c="dimmed">No modules</Text> : null}
              {[...families.entries()]
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([family, mods]) => (
                  <div key={family}>
                    <Text fz={11} fw={700} c="brand.7" tt="uppercase" mb={4}>
                      {family}
                    </Text>
                    <Box style={{ display: 'grid', gap: 6, gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))' }}>
                      {mods.map((m) => (
                        <UnstyledButton key={m.moduleName} onClick={() => setSelected(m.moduleName)} aria-pressed={selected === m.moduleName}>
                          <Paper withBorder p={8} radius="sm" bg={selected === m.moduleName ? 'brand.0' : undefined}>
                            <Group justify="space-between" wrap="nowrap">
                              <div style={{ minWidth: 0 }}>
                                <Text fz="sm" fw={600} truncate>
                                  {m.moduleLabel ?? m.moduleName}
                                </Text>
                                <Text fz={11} c="dimmed" truncate>
                                  {m.moduleName}
                                  {m.foType === 'SWITCH' && m.moduleNameSwitch ? ` → ${m.moduleNameSwitch}` : ''}
                                </Text>
                              </div>
                              <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                                <Badge size="xs" variant="light" color={m.foType === 'SWITCH' ? 'grape' : 'gray'}>
                                  {m.foType}
                                </Badge>
                                {m.added ? (
                                  <Badge size="xs" color="teal" variant="light">
                                    ADDED
                                  </Badge>
                                ) : null}
                              </Group>
                            </Group>
                          </Paper>
                        </UnstyledButton>
                      ))}
                    </Box>
                  </div>
                ))}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="md" radius="md" data-testid="module-composition">
            <Title order={5} mb="xs">
              {SUGGESTION_TEXTS.moduleComposition}
            </Title>
            {!selected ? (
              <Text c="dimmed" fz="sm">
                {SUGGESTION_TEXTS.compositionPlaceholder}
              </Text>
            ) : composition.isLoading ? (
              <Loader size="sm" />
            ) : composition.isError ? (
              <Text c="red.9" fz="sm">
                {composition.error.message}
              </Text>
            ) : (
              <ScrollArea.Autosize mah={480}>
                <Text fz="sm" fw={600} mb={6}>
                  {composition.data?.moduleLabel} · {composition.data?.skus.length} SKU
                </Text>
                <Table fz="xs" striped withTableBorder>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>UPC</Table.Th>
                      <Table.Th>Model</Table.Th>
                      <Table.Th>Color</Table.Th>
                      <Table.Th>Size</Table.Th>
                      <Table.Th>MH/EL</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {composition.data?.skus.map((s) => (
                      <Table.Tr key={s.upc}>
                        <Table.Td>{s.upc}</Table.Td>
                        <Table.Td>{s.model}</Table.Td>
                        <Table.Td>{s.color}</Table.Td>
                        <Table.Td>{s.size}</Table.Td>
                        <Table.Td>{s.mustHave ? 'MH' : 'EL'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
