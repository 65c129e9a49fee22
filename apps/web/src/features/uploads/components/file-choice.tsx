import { ActionIcon, Button, FileButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { formatFileSize } from '../logic/upload-file';

/** The file an upload box holds (Upload Files, Import Data): its name and size, and the button that removes it. */
export function ChosenFile({
  file,
  onRemove,
  disabled,
  nameTestId,
  sizeTestId,
  fullWidth = false,
}: {
  file: File;
  onRemove: () => void;
  disabled: boolean;
  nameTestId: string;
  sizeTestId?: string;
  fullWidth?: boolean;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" w={fullWidth ? '100%' : undefined}>
      <Stack gap={0} miw={0}>
        <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid={nameTestId}>
          {file.name}
        </Text>
        <Text fz="xs" c="dimmed" data-testid={sizeTestId}>
          {formatFileSize(file.size)}
        </Text>
      </Stack>
      <Tooltip label="Remove the file">
        <ActionIcon variant="subtle" color="gray" onClick={onRemove} disabled={disabled} aria-label={`Remove ${file.name}`}>
          <IconX size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** 'Choose file': the picker of an upload box, limited to `accept`; `resetRef` clears it so the same file can be chosen again. */
export function ChooseFileButton({
  onChoose,
  accept,
  resetRef,
  disabled,
  testId,
  inputTestId,
}: {
  onChoose: (file: File | null) => void;
  accept: string;
  resetRef: React.RefObject<(() => void) | null>;
  disabled: boolean;
  testId: string;
  inputTestId?: string;
}) {
  return (
    <FileButton onChange={onChoose} accept={accept} resetRef={resetRef} disabled={disabled} inputProps={{ disabled, 'data-testid': inputTestId } as React.ComponentProps<'input'>}>
      {(props) => (
        <Button {...props} size="compact-sm" variant="light" disabled={disabled} data-testid={testId}>
          Choose file
        </Button>
      )}
    </FileButton>
  );
}
