import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FIELD_RULES } from '@bo/shared/creation';
import { textFieldError } from '@bo/shared/validation';
import { flash } from '@/components/ui/flash';
import { createMacroFamily } from '../api/create-macro-family';
import { macroFamiliesQueryOptions } from '../api/get-macro-families';
import { CountedTextInput, CreationModal, useCreationSubmit } from './creation-modal';

/** Create family: name required, at most 100 characters (part 1 §5). Then the new-macro flow creates its first module. */
export function CreateFamilyModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (macroFamily: string) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const { busy, serverError, setServerError, run } = useCreationSubmit();
  useEffect(() => {
    if (opened) {
      setName('');
      setTouched(false);
      setServerError(null);
    }
  }, [opened, setServerError]);
  const error = textFieldError(name, FIELD_RULES.familyName);

  const submit = async () => {
    setTouched(true);
    if (error) return;
    await run(async () => {
      const family = await createMacroFamily(name.trim());
      await queryClient.invalidateQueries({ queryKey: macroFamiliesQueryOptions().queryKey });
      flash(`The macro family ${family.macroFamily} has been created`);
      onCreated(family.macroFamily);
    }, 'Unable to create the macro family.');
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
      <CountedTextInput
        label="Macro family name"
        placeholder="e.g. AVIATOR"
        required
        value={name}
        max={FIELD_RULES.familyName.max}
        onValue={setName}
        onBlur={() => setTouched(true)}
        error={touched || name ? error : null}
        data-autofocus
      />
    </CreationModal>
  );
}
