import { useEffect, useState } from 'react';
import { Anchor, Button, Checkbox, Group, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ModuleKey } from '@bo/shared/modules';
import { formatMonthId } from '@/lib/format';
import { canSaveInCopy, canSavePublishInCopy } from '@bo/shared/permissions';
import { copiedText, copyFailedText, WORKING_AREA_TEXTS } from '@bo/shared/working-area';
import { copyResultLines, copySummary, type CopyOutcome } from '@bo/shared/copy-results';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { copyModules } from '../api/copy-modules';
import { waitForJob } from '@/lib/jobs';
import { getModuleMonths } from '../api/get-module-months';
import { modulePageUrl } from '../logic/page-params';

interface CopyModalProps {
  modules: ModuleKey[] | null;
  onClose: () => void;
}

interface CopyResult {
  copied: { moduleName: string; months: string[] }[];
  errors: { moduleName: string; months: string[]; message: string }[];
  /** What happened per month, counted (issue 34 item 2); absent from an older server's answer. */
  outcome?: CopyOutcome;
}

const TONE_COLORS = { success: 'teal.9', warning: 'var(--bo-warning-text)', error: 'red.8' } as const;

/**
 * Copy popup (part 1 §2, part 2 §6): destination months among the open months of the module(s);
 * Save copies, Save & Publish copies and publishes there (each by its own right).
 */
export function CopyModal({ modules, onClose }: CopyModalProps) {
  const grants = useSession((s) => s.grants) ?? [];
  const [months, setMonths] = useState<string[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<CopyResult | null>(null);
  const names = modules?.map((m) => m.moduleName).join(', ') ?? '';

  useEffect(() => {
    setChosen([]);
    setOutcome(null);
    setMonths(null);
    if (!modules?.length) return;
    let cancelled = false;
    Promise.all(modules.map((m) => getModuleMonths(m.moduleName, m.monthId)))
      .then((lists) => {
        // Months open to every chosen module (each list already leaves out the module's own month).
        const common = lists.reduce((acc, l) => acc.filter((m) => l.includes(m)));
        if (!cancelled) setMonths(common);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setMonths([]);
        showMessagePopup('Error', error instanceof ApiError && error.message ? error.message : `Failed to fetch months for module ${names}`);
      });
    return () => {
      cancelled = true;
    };
  }, [modules, names]);

  const run = async (toPublish: boolean) => {
    if (!modules?.length || chosen.length === 0) return;
    setRunning(true);
    try {
      let answer = await copyModules({ modules: modules.map((m) => ({ ...m, destinationMonthList: chosen })), toPublish });
      if (!answer.done) {
        const job = await waitForJob(answer.jobId);
        const result = (job.result ?? {}) as Partial<CopyResult>;
        answer = { ...answer, copied: result.copied ?? [], errors: result.errors ?? [], ...(result.outcome ? { outcome: result.outcome } : {}) };
      }
      setOutcome({ copied: answer.copied, errors: answer.errors, ...(answer.outcome ? { outcome: answer.outcome } : {}) });
      for (const c of answer.copied) flash(copiedText(c.moduleName, c.months.map(formatMonthId)));
    } catch (error) {
      showMessagePopup('Error', error instanceof ApiError ? error.message : copyFailedText(names, chosen.map(formatMonthId)));
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal opened={!!modules} onClose={onClose} title={<Text fw={700}>Copy {modules && modules.length > 1 ? `${modules.length} modules` : names}</Text>} size="lg" centered>
      {outcome ? (
        <Stack gap="sm" data-testid="copy-outcome">
          {outcome.outcome && (
            <Text fz="sm" fw={700} data-testid="copy-summary">
              {copySummary(outcome.outcome)}
            </Text>
          )}
          {outcome.copied.map((c) => (
            <Stack key={c.moduleName} gap={2}>
              <Text fz="sm" c="teal.9">
                {copiedText(c.moduleName, c.months.map(formatMonthId))}
              </Text>
              <Group gap="xs">
                {c.months.map((month) => (
                  <Anchor key={month} fz="xs" href={modulePageUrl({ moduleName: c.moduleName, monthId: month })} target="_blank">
                    Open in {formatMonthId(month)}
                  </Anchor>
                ))}
              </Group>
            </Stack>
          ))}
          {outcome.outcome ? (
            <>
              {/* Copied, published, not published and failed, each said for what it is (issue 34 item 2). */}
              {copyResultLines('module', outcome.outcome)
                .filter((l) => !l.text.startsWith('Copied module'))
                .map((l) => (
                  <Text key={l.text} fz="sm" c={TONE_COLORS[l.tone]} data-testid="copy-line">
                    {l.text}
                  </Text>
                ))}
            </>
          ) : (
            outcome.errors.map((e) => (
              <Text key={`${e.moduleName}-${e.months.join()}`} fz="sm" c="red.8">
                {copyFailedText(e.moduleName, e.months.map(formatMonthId))}: {e.message}
              </Text>
            ))
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : months === null ? (
        <Group justify="center" py="lg">
          <Loader size="sm" />
        </Group>
      ) : months.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {WORKING_AREA_TEXTS.noMonths}
        </Text>
      ) : (
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            Choose the destination months. The saved composition is copied; an existing module there is overwritten.
          </Text>
          <Checkbox.Group value={chosen} onChange={setChosen} label="Destination months">
            <SimpleGrid cols={4} mt="xs" spacing="xs">
              {months.map((m) => (
                <Checkbox key={m} value={m} label={formatMonthId(m)} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="space-between">
            <Button variant="subtle" size="xs" onClick={() => setChosen(chosen.length === months.length ? [] : months)}>
              {chosen.length === months.length ? 'Clear all' : 'Select all'}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button variant="light" disabled={chosen.length === 0 || !canSaveInCopy(grants)} loading={running} onClick={() => void run(false)}>
                Save
              </Button>
              <Button disabled={chosen.length === 0 || !canSavePublishInCopy(grants)} loading={running} onClick={() => void run(true)}>
                Save &amp; Publish
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
