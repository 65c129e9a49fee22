import { Alert, Badge, Group, Modal, Stack, Text, Textarea, TextInput, type ModalProps, type TextareaProps, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { FormActions } from '@/components/ui/form-actions';
import { splitMessages } from '@/components/ui/message-popup';
import type { TextRule } from '@bo/shared/validation';
import { ApiError } from '@/lib/api-error';
import { formatMonthId } from '@/lib/format';
import type { LegoState } from '../hooks/use-lego-status';
import { LegoBadge } from './lego-badge';

interface CreationModalProps {
  opened: boolean;
  onClose: () => void;
  /** While saving the popup cannot be closed. */
  busy: boolean;
  title: string;
  /** The month it creates in, and its LEGO lookup (shown next to the title). */
  monthId?: string;
  lego?: LegoState;
  size?: ModalProps['size'];
  testId: string;
  onSubmit: () => void;
  /** "Unable to create …" with the server's lines. */
  errorTitle: string;
  serverError: string[] | null;
  submitLabel: string;
  submitTestId?: string;
  submitDisabled?: boolean;
  /** A line above the buttons. */
  footnote?: React.ReactNode;
  children: React.ReactNode;
}

/** The shell of the home's create popups (family, module, cluster): title, form, server error, Cancel / Create. */
export function CreationModal(p: CreationModalProps) {
  return (
    <Modal
      opened={p.opened}
      onClose={p.busy ? () => undefined : p.onClose}
      size={p.size ?? 'md'}
      radius="lg"
      centered
      data-testid={p.testId}
      title={
        <Group gap="sm">
          <Text fw={700}>{p.title}</Text>
          {p.monthId && (
            <Badge variant="light" radius="sm">
              {formatMonthId(p.monthId)}
            </Badge>
          )}
          {p.lego && <LegoBadge state={p.lego} />}
        </Group>
      }
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          p.onSubmit();
        }}
      >
        <Stack gap="sm">
          {p.children}
          {p.serverError && (
            <Alert color="red" variant="light" title={p.errorTitle} data-testid="create-error">
              {p.serverError.map((line) => (
                <Text key={line} fz="sm">
                  {line}
                </Text>
              ))}
            </Alert>
          )}
          {p.footnote}
          <FormActions mt="xs" onCancel={p.onClose} busy={p.busy} submitLabel={p.submitLabel} reason={p.submitDisabled && 'Correct the fields marked in red first'} submitTestId={p.submitTestId} />
        </Stack>
      </form>
    </Modal>
  );
}

/** A failed create's lines for the popup: the server's message split into lines, else `fallback`. */
export const failureLines = (e: unknown, fallback: string): string[] => (e instanceof ApiError && e.message ? splitMessages(e.message) : [fallback]);

/**
 * The submit wiring of the create popups: `run` marks the popup busy (it cannot be closed), clears the
 * server error, and shows the failure's lines (`failureLines`) when the task throws.
 */
export function useCreationSubmit() {
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string[] | null>(null);
  const run = async (task: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setServerError(null);
    try {
      await task();
    } catch (e) {
      setServerError(failureLines(e, fallback));
    } finally {
      setBusy(false);
    }
  };
  return { busy, serverError, setServerError, run };
}

type Counted<P> = Omit<P, 'value' | 'onChange' | 'description'> & { value: string; max: number; onValue: (value: string) => void };

/** A text field of a create popup with its 'n / max' counter. */
export function CountedTextInput({ value, max, onValue, ...rest }: Counted<TextInputProps>) {
  return <TextInput {...rest} value={value} onChange={(e) => onValue(e.currentTarget.value)} description={`${value.length} / ${max}`} />;
}

/** The description of a create popup with its 'n / max' counter. */
export function CountedTextarea({ value, max, onValue, ...rest }: Counted<TextareaProps>) {
  return <Textarea autosize minRows={2} {...rest} value={value} onChange={(e) => onValue(e.currentTarget.value)} description={`${value.length} / ${max}`} />;
}

/**
 * The props of a form's counted fields: `counted(field, rule)` gives the value, the limit, the setter and the
 * error, shown once the field holds something or `show` says so (touched, submitted); `always` shows it at once.
 */
export const countedFields =
  <F extends string>(form: { values: Record<F, string>; errors: Partial<Record<F, string>>; show: (field: F) => string | undefined; set: (field: F, value: string) => void }) =>
  (field: F, rule: TextRule, always = false) => ({
    value: form.values[field],
    max: rule.max,
    onValue: (v: string) => form.set(field, v),
    error: always || form.values[field] ? form.errors[field] : form.show(field),
  });
