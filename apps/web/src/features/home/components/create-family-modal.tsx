import { Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FIELD_RULES } from '@bo/shared/creation';
import { textFieldError } from '@bo/shared/validation';
import { flash } from '@/components/ui/flash';
import { splitMessages } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { createMacroFamily } from '../api/create-macro-family';
import { macroFamiliesQueryOptions } from '../api/get-macro-families';
import { CreationModal } from './creation-modal';

/** Create family: name required, at most 100 characters (part 1 §5). Then the new-macro flow creates its first module. */
export function CreateFamilyModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (macroFamily: string) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setName('');
      setTouched(false);
      setServerError(null);
    }
  }, [opened]);
  const error = textFieldError(name, FIELD_RULES.familyName);

  const submit = async () => {
    setTouched(true);
    if (error) return;
    setBusy(true);
    setServerError(null);
    try {
      const family = await createMacroFamily(name.trim());
      await queryClient.invalidateQueries({ queryKey: macroFamiliesQueryOptions().queryKey });
      flash(`The macro family ${family.macroFamily} has been created`);
      onCreated(family.macroFamily);
    } catch (e) {
      setServerError(splitMessages(e instanceof ApiError ? e.message : 'Unable to create the macro family.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CreationModal
      opened={opened}
      onClose={onClose}
      busy={busy}
      title="Create family"
      testId="create-family-modal"
      onSubmit={() => void submit()}
      errorTitle="Unable to create the macro family"
      serverError={serverError}
      submitLabel="Create"
      submitDisabled={!!error}
      footnote={
        <Text fz="xs" c="dimmed">
          After the family you will create its first module.
        </Text>
      }
    >
      <TextInput
        label="Macro family name"
        placeholder="e.g. AVIATOR"
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        onBlur={() => setTouched(true)}
        error={touched || name ? error : null}
        description={`${name.length} / ${FIELD_RULES.familyName.max}`}
        data-autofocus
      />
    </CreationModal>
  );
}
