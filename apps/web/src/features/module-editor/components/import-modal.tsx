import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { currentMonth, monthOptions } from '@/lib/format';
import { showMessagePopup } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { useMonths } from '@/lib/reference-lists';
import type { ImportItem } from '../api/import-modules';

interface ImportModalProps {
  opened: boolean;
  defaultMonthId: string | null;
  onClose: () => void;
  onImport: (items: ImportItem[]) => Promise<{ added: number; notFound: string[] }>;
}

/** Import Module: adds existing modules (by name, one per line, or a whole macro family) to the page. */
export function ImportModal({ opened, defaultMonthId, onClose, onImport }: ImportModalProps) {
  // Closed, it asks nothing: the months are read when the popup first opens, not with the page's modules.
  const months = useMonths(opened);
  const [monthId, setMonthId] = useState<string | null>(defaultMonthId);
  const [names, setNames] = useState('');
  const [family, setFamily] = useState('');
  const [running, setRunning] = useState(false);
  const open = (months.data ?? []).filter((m) => m.open);
  // The editor's month when it is open, else the current month (docs/web-app.md "Months").
  const month = monthId ?? (open.some((m) => m.monthId === defaultMonthId) ? defaultMonthId : currentMonth(open));
  const list = names
    .split(/[\n,;]+/)
    .map((n) => n.trim())
    .filter(Boolean);
  const items: ImportItem[] = month ? [...list.map((moduleName) => ({ moduleName, monthId: month })), ...(family.trim() ? [{ macroFamily: family.trim(), monthId: month }] : [])] : [];

  const submit = async () => {
    setRunning(true);
    try {
      const { added, notFound } = await onImport(items);
      if (notFound.length) showMessagePopup('Not found', notFound.map((n) => `${n} does not exist`), 'orange');
      if (added) {
        setNames('');
        setFamily('');
        onClose();
      }
    } catch (error) {
      showMessagePopup('Error', error instanceof ApiError ? error.message : 'Import failed');
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>Import Module</Text>} centered>
      <Stack gap="sm">
        <Select
          label="Month"
          data={monthOptions(months.data ?? [], { openOnly: true })}
          value={month}
          onChange={setMonthId}
          searchable
        />
        <Textarea label="Module names" description="One per line" autosize minRows={3} maxRows={8} value={names} onChange={(e) => setNames(e.currentTarget.value)} />
        <TextInput label="Macro family" description="Optional: every module of the family in the month" value={family} onChange={(e) => setFamily(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <DisabledReason reason={items.length === 0 && !running && 'Type a module name or a macro family first'}>
            <Button loading={running} onClick={() => void submit()}>
              Import
            </Button>
          </DisabledReason>
        </Group>
      </Stack>
    </Modal>
  );
}
