import { Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type DecisionAnswer, type SuggestedCluster } from '@bo/shared/suggested-clusters';
import { confirmDialog, type ConfirmOptions } from '@/components/ui/confirm-dialog';
import { showMessagePopup } from '@/components/ui/message-popup';
import { acceptSuggestion } from '../api/accept-suggestion';
import { suggestListQueryKey } from '../api/get-suggest-list';
import { rejectSuggestion } from '../api/reject-suggestion';
import { decisionLines } from '../logic/suggestion-table';

/** The reject question's optional reason; its text goes to the caller as it is typed. */
function ReasonField({ onChange }: { onChange: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  return (
    <Textarea
      label="Reason (optional)"
      value={reason}
      maxLength={500}
      autosize
      minRows={3}
      data-autofocus
      onChange={(e) => {
        setReason(e.currentTarget.value);
        onChange(e.currentTarget.value);
      }}
    />
  );
}

/**
 * Approve and Reject of a suggestion (part 2 §4 "Suggested cluster"), the same for the table and the
 * preview: each asks first (Reject with the optional reason), sends its call inside the question — the
 * confirm button loads and a second click sends nothing —, then shows the server's message in a popup
 * and reloads the table. Cancelling sends nothing.
 */
export function useSuggestionDecisions() {
  const queryClient = useQueryClient();

  const decide = async (question: Omit<ConfirmOptions, 'action'>, send: () => Promise<DecisionAnswer>) => {
    const sent: { answer?: DecisionAnswer } = {};
    try {
      const confirmed = await confirmDialog({
        ...question,
        cancelLabel: 'Cancel',
        action: async () => {
          sent.answer = await send();
        },
      });
      if (!confirmed || !sent.answer) return;
      showMessagePopup(sent.answer.status === 'APPROVED' ? 'Approved' : 'Rejected', decisionLines(sent.answer), 'blue');
    } catch (e) {
      showMessagePopup('Error!', e instanceof Error ? e.message : String(e));
    }
    // Reloaded after an error too: a refusal often means someone else decided the suggestion meanwhile.
    await queryClient.invalidateQueries({ queryKey: suggestListQueryKey });
  };

  const approve = (line: SuggestedCluster) =>
    decide(
      {
        title: `Approve the cluster ${line.assortmentId}`,
        message: (
          <Stack gap={6}>
            <Text fz="sm">Are you sure you want to approve the suggested cluster {line.assortmentId}?</Text>
            <Text fz="sm" c="dimmed">
              The cluster {line.originalAssortment} is created or updated with its stores and modules.
            </Text>
          </Stack>
        ),
        confirmLabel: 'Approve',
        confirmColor: 'teal',
      },
      () => acceptSuggestion(line),
    );

  const reject = (line: SuggestedCluster) => {
    let reason = '';
    return decide(
      {
        title: `Reject the cluster ${line.assortmentId}`,
        message: (
          <Stack gap="sm">
            <Text fz="sm">Are you sure you want to reject the suggested cluster {line.assortmentId}?</Text>
            <ReasonField onChange={(r) => (reason = r)} />
          </Stack>
        ),
        confirmLabel: 'Reject',
        confirmColor: 'red',
      },
      () => rejectSuggestion(line, reason),
    );
  };

  return { approve, reject };
}
